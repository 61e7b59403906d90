// Package web is the web app: its pages' handlers, route table and
// middleware (the session cookie, CSRF), and the html/template files and
// stylesheet they render, embedded in the binary. It never imports the
// server: what it needs from it arrives in Options. A form is read by
// input's readers, so it is checked by the API's rules and worded with
// its messages.
package web

import (
	"embed"
	"fmt"
	"html/template"
	"io"
	"io/fs"
	"net/url"
	"path"
	"strings"
)

//go:embed templates/*.html static/*
var files embed.FS

// Static is the stylesheet and script, served under /static/.
func Static() fs.FS {
	sub, err := fs.Sub(files, "static")
	if err != nil {
		panic(err) // the embedded tree is fixed at build time
	}
	return sub
}

// Page is what every page template gets.
type Page struct {
	Title string
	// Nav names the navigation's current link: dashboard, people,
	// journals or settings; empty on pages outside it.
	Nav  string
	User *User // nil before sign-in
	CSRF string
	// Flash is a one-line report of what the last form did.
	Flash string
	Data  any
}

// User is who is signed in, as the bar shows them.
type User struct {
	Email string
}

// Pages are the parsed templates, one set per page.
type Pages struct {
	pages map[string]*template.Template
}

// Parse reads every page under templates/, each with the layout and the
// shared partials.
func Parse() (*Pages, error) {
	shared := []string{"templates/layout.html", "templates/partials.html"}
	names, err := fs.Glob(files, "templates/*.html")
	if err != nil {
		return nil, err
	}
	p := &Pages{pages: make(map[string]*template.Template)}
	for _, name := range names {
		if name == shared[0] || name == shared[1] {
			continue
		}
		t, err := template.New(path.Base(name)).Funcs(funcs).ParseFS(files, append(shared, name)...)
		if err != nil {
			return nil, fmt.Errorf("web: parse %s: %w", name, err)
		}
		p.pages[strings.TrimSuffix(path.Base(name), ".html")] = t
	}
	return p, nil
}

// Render writes the page name with data to w. A template that fails
// midway leaves part of a page written: the caller renders into a buffer
// when it must not commit one.
func (p *Pages) Render(w io.Writer, name string, data Page) error {
	t, ok := p.pages[name]
	if !ok {
		return fmt.Errorf("web: no page %q", name)
	}
	if err := t.ExecuteTemplate(w, "layout", data); err != nil {
		return fmt.Errorf("web: render %s: %w", name, err)
	}
	return nil
}

var funcs = template.FuncMap{
	"query": query,
	// button makes a Button: action, CSRF token, label and class.
	"button": func(action, csrf, label, class string) Button {
		return Button{Action: action, CSRF: csrf, Label: label, Class: class}
	},
	// confirm is button's for what cannot be undone.
	"confirm": func(action, csrf, label, question string) Button {
		return Button{Action: action, CSRF: csrf, Label: label, Class: "danger", Confirm: question}
	},
	// fid is a field's id, unique on a page that holds many forms.
	"fid": func(form, field string) string { return form + "-" + field },
	// field pairs a field with its form's ID for the partial "field".
	"field": func(form string, f Field) formField { return formField{form, f} },
}

// query builds a link's query string from pairs of key and value,
// leaving out empty values.
func query(kv ...string) string {
	v := url.Values{}
	for i := 0; i+1 < len(kv); i += 2 {
		if kv[i+1] != "" {
			v.Set(kv[i], kv[i+1])
		}
	}
	if len(v) == 0 {
		return ""
	}
	return "?" + v.Encode()
}
