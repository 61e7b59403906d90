package server

import (
	"errors"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"kith/store"
)

// storeNotFound is every not-found error the store declares, with the
// message the contract gives it.
var storeNotFound = map[string]struct {
	err error
	msg string
}{
	"ErrPersonNotFound":   {store.ErrPersonNotFound, "Person not found."},
	"ErrTaskNotFound":     {store.ErrTaskNotFound, "Task not found."},
	"ErrCategoryNotFound": {store.ErrCategoryNotFound, "Task category not found."},
	"ErrAPIKeyNotFound":   {store.ErrAPIKeyNotFound, "API key not found."},
	"ErrUserNotFound":     {store.ErrUserNotFound, "User not found."},
	"ErrAccountNotFound":  {store.ErrAccountNotFound, "Account not found."},

	"ErrLifeEventNotFound":    {store.ErrLifeEventNotFound, "Life event not found."},
	"ErrWorkEntryNotFound":    {store.ErrWorkEntryNotFound, "Work history entry not found."},
	"ErrGenderNotFound":       {store.ErrGenderNotFound, "Gender not found."},
	"ErrNoteNotFound":         {store.ErrNoteNotFound, "Note not found."},
	"ErrGiftNotFound":         {store.ErrGiftNotFound, "Gift not found."},
	"ErrJournalNotFound":      {store.ErrJournalNotFound, "Journal not found."},
	"ErrEntryNotFound":        {store.ErrEntryNotFound, "Entry not found."},
	"ErrLogNotFound":          {store.ErrLogNotFound, "Log not found."},
	"ErrCalendarFeedNotFound": {store.ErrCalendarFeedNotFound, "Calendar feed not found."},
	"ErrChannelNotFound":      {store.ErrChannelNotFound, "Channel not found."},

	"ErrContactDetailNotFound": {store.ErrContactDetailNotFound, "Contact detail not found."},
	"ErrImportantDateNotFound": {store.ErrImportantDateNotFound, "Important date not found."},
	"ErrInteractionNotFound":   {store.ErrInteractionNotFound, "Interaction not found."},
	"ErrCardNotFound":          {store.ErrCardNotFound, "Card not found."},

	"ErrRelationshipTypeNotFound": {store.ErrRelationshipTypeNotFound, "Relationship type not found."},
	"ErrRelationshipNotFound":     {store.ErrRelationshipNotFound, "Relationship not found."},
	"ErrTagNotFound":              {store.ErrTagNotFound, "Tag not found."},
	"ErrPhotoNotFound":            {store.ErrPhotoNotFound, "Photo not found."},
	"ErrReminderNotFound":         {store.ErrReminderNotFound, "Reminder not found."},
	"ErrWebSessionNotFound":       {store.ErrWebSessionNotFound, "Session not found."},
	"ErrPasskeyNotFound":          {store.ErrPasskeyNotFound, "Passkey not found."},
}

// TestNotFoundWording answers each store not-found error, bare or wrapped,
// with the contract's message, and any other with "Not found.": the
// store's own words ("store: widget not found") never reach a client.
func TestNotFoundWording(t *testing.T) {
	e := newEnv(t)
	var fail error
	e.srv.echo.GET("/api/notfound", func(echo.Context) error { return fail })
	for name, nf := range storeNotFound {
		for _, err := range []error{nf.err, fmt.Errorf("reading: %w", nf.err)} {
			fail = err
			r := e.do(req{method: "GET", path: "/api/notfound"})
			if want := `{"message":"` + nf.msg + `","status":404}` + "\n"; r.code != 404 || r.body != want {
				t.Errorf("%s as %q: %d %s, want 404 %s", name, err, r.code, r.body, want)
			}
		}
	}
	for _, err := range []error{
		&store.NotFoundError{What: "widget"},
		fmt.Errorf("store: gadget: %w", store.ErrNotFound),
		store.ErrNotFound,
	} {
		fail = err
		r := e.do(req{method: "GET", path: "/api/notfound"})
		if r.code != 404 || r.body != `{"message":"Not found.","status":404}`+"\n" {
			t.Errorf("unworded %q: %d %s, want the generic 404", err, r.code, r.body)
		}
		for _, leak := range []string{"store", "widget", "gadget"} {
			if strings.Contains(r.body, leak) {
				t.Errorf("unworded %q: the body holds %q: %s", err, leak, r.body)
			}
		}
	}
}

// TestEveryStoreNotFoundIsWorded reads the store's source for its
// not-found errors, so that one added there without a message here fails
// rather than answering clients with the generic "Not found.".
func TestEveryStoreNotFoundIsWorded(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "store", "*.go"))
	if err != nil {
		t.Fatal(err)
	}
	isNotFound := regexp.MustCompile(`^Err\w+NotFound$`)
	found := map[string]bool{}
	fset := token.NewFileSet()
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range file.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.VAR {
				continue
			}
			for _, spec := range gd.Specs {
				for _, id := range spec.(*ast.ValueSpec).Names {
					if isNotFound.MatchString(id.Name) {
						found[id.Name] = true
					}
				}
			}
		}
	}
	if len(found) == 0 {
		t.Fatal("no Err…NotFound variables in ../store: has the store moved?")
	}
	for name := range found {
		nf, ok := storeNotFound[name]
		if !ok {
			t.Errorf("store.%s has no message: add it to notFoundMessages and to this test", name)
			continue
		}
		if !errors.Is(nf.err, store.ErrNotFound) {
			t.Errorf("store.%s does not match store.ErrNotFound", name)
		}
		if got := notFoundMessage(nf.err); got != nf.msg {
			t.Errorf("store.%s is worded %q, want %q", name, got, nf.msg)
		}
	}
	for name := range storeNotFound {
		if !found[name] {
			t.Errorf("store.%s is gone from the store: drop it here", name)
		}
	}
}
