package cli

import (
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// TestREADMEIsForUsers: the README stays a user's page, short, with the
// quick start near the top; the rest lives in docs/.
func TestREADMEIsForUsers(t *testing.T) {
	b, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimRight(string(b), "\n"), "\n")
	if len(lines) > 350 {
		t.Errorf("README.md has %d lines, want at most 350: move the detail to docs/", len(lines))
	}
	at := -1
	for i, l := range lines {
		if l == "## Quick start" {
			at = i + 1
			break
		}
	}
	if at < 0 || at > 60 {
		t.Errorf("README.md's \"## Quick start\" is at line %d, want within the first 60", at)
	}
}

// TestDocsLinks: every relative link and image of the README and docs/
// leads to a file that exists and, with a #fragment, to a heading of that
// file, as GitHub names its anchors.
func TestDocsLinks(t *testing.T) {
	files, err := filepath.Glob("../docs/*.md")
	if err != nil {
		t.Fatal(err)
	}
	files = append(files, "../README.md")
	if len(files) < 2 {
		t.Fatal("no docs/*.md beside the README")
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(path string) map[string]bool {
		if a, ok := anchors[path]; ok {
			return a
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		a := headingAnchors(string(b))
		anchors[path] = a
		return a
	}
	checked := 0
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, l := range markdownLinks(string(b)) {
			target := l.target
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			checked++
			path, frag, _ := strings.Cut(target, "#")
			dest := f
			if path != "" {
				dest = filepath.Join(filepath.Dir(f), path)
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s:%d: %s leads to no file (%v)", f, l.line, target, err)
					continue
				}
			}
			if frag == "" {
				continue
			}
			if !strings.HasSuffix(dest, ".md") {
				t.Errorf("%s:%d: %s: an anchor into a file that is not Markdown", f, l.line, target)
				continue
			}
			if !anchorsOf(dest)[frag] {
				t.Errorf("%s:%d: %s: %s has no heading with the anchor #%s", f, l.line, target, dest, frag)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d relative links found: the link reader is broken", checked)
	}
}

type mdLink struct {
	line   int
	target string
}

var linkRE = regexp.MustCompile(`!?\[[^\]]*\]\(([^)\s]+)\)`)

// markdownLinks returns the targets of inline links and images outside
// fenced blocks and code spans.
func markdownLinks(doc string) []mdLink {
	var links []mdLink
	fenced := false
	for i, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced {
			continue
		}
		l = regexp.MustCompile("`[^`]*`").ReplaceAllString(l, "")
		for _, m := range linkRE.FindAllStringSubmatch(l, -1) {
			links = append(links, mdLink{i + 1, m[1]})
		}
	}
	return links
}

// headingAnchors returns the anchors GitHub gives a document's headings:
// lower case, spaces as hyphens, other punctuation dropped, and -1, -2…
// after a repeated one.
func headingAnchors(doc string) map[string]bool {
	seen := map[string]int{}
	out := map[string]bool{}
	fenced := false
	for _, l := range strings.Split(doc, "\n") {
		if strings.HasPrefix(l, "```") {
			fenced = !fenced
			continue
		}
		if fenced || !strings.HasPrefix(l, "#") {
			continue
		}
		text := strings.TrimSpace(strings.TrimLeft(l, "#"))
		var b strings.Builder
		for _, r := range strings.ToLower(text) {
			switch {
			case unicode.IsLetter(r) || unicode.IsDigit(r) || r == '-' || r == '_':
				b.WriteRune(r)
			case r == ' ':
				b.WriteRune('-')
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			out[a+"-"+strconv.Itoa(n)] = true
		} else {
			out[a] = true
		}
		seen[a]++
	}
	return out
}
