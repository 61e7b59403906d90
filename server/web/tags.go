package web

import (
	"net/http"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/store"
)

// tagsForm replaces the person's tags: one text field of names separated
// by commas, which input.PersonTags reads as the API's tags array.
func tagsForm(base, token string) Form {
	return Form{ID: "tags", Action: base + "/tags", Submit: "Save tags", CSRF: token, Fields: []Field{
		{Name: "tags", Label: "Tags", Type: "text", Auto: "off",
			Hint: "A comma separates tags: Work, Book club. Empty removes them all."},
	}}
}

// tagsValue is the form's field for the person's tags: their names, as
// the field separates them.
func tagsValue(tags []string) url.Values {
	return url.Values{"tags": {strings.Join(tags, ", ")}}
}

// handlePersonTags makes the names typed exactly the person's tags, as
// PUT /api/persons/{person}/tags does.
func (a *App) handlePersonTags(c echo.Context) error {
	per, err := a.webPerson(c)
	if err != nil {
		return err
	}
	p := input.FormParams(c)
	var typed []any
	if text, ok := p.Value("tags").(string); ok {
		typed = splitTags(text, per.Tags)
		p.Set("tags", typed)
	}
	names := input.PersonTags(p)
	if err := p.Err(); err != nil {
		return a.personPage(c, http.StatusUnprocessableEntity, per, failed{form: "tags", values: c.Request().PostForm, errs: tagErrors(err, typed)})
	}
	if _, err := a.store.SetPersonTags(c.Request().Context(), input.Account(c), per.ID, names); err != nil {
		return err
	}
	return a.seeOther(c, "/people/"+itoa64(per.ID)+"#tags", "Tags saved.")
}

// splitTags cuts the field's text at its commas into the API's array,
// empty pieces left out, so that an element's index in a message counts
// the names typed. A tag the person has whose name holds a comma (one an
// import or the API gave) stays one name when the text still holds it
// whole: the form shows it among the others, and saving the form
// unchanged must not cut it in two.
func splitTags(text string, current []string) []any {
	var withComma []string
	for _, t := range current {
		if strings.Contains(t, ",") {
			withComma = append(withComma, t)
		}
	}
	pieces := strings.Split(text, ",")
	out := []any{}
	for i := 0; i < len(pieces); i++ {
		name, next := strings.TrimSpace(pieces[i]), i
		// The longest run of pieces that is such a tag, as long as a tag
		// can be: a text of many commas costs no more than its length.
		size := len(pieces[i])
		for j := i + 1; j < len(pieces) && len(withComma) > 0 && size <= maxJoinedTag; j++ {
			size += 1 + len(pieces[j])
			if joined := strings.TrimSpace(strings.Join(pieces[i:j+1], ",")); hasFold(withComma, joined) {
				name, next = joined, j
			}
		}
		if name != "" {
			out = append(out, name)
		}
		i = next
	}
	return out
}

// maxJoinedTag is the most bytes a tag's name takes in the field, the
// spaces the form puts around it too.
const maxJoinedTag = 4*store.MaxTagLength + 2

func hasFold(names []string, name string) bool {
	for _, n := range names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// tagErrors are err's messages under the form's one field, worded by the
// name they refuse: the API's name their place in its array ("The tags.2
// field …"), which the field does not show.
func tagErrors(err error, typed []any) map[string][]string {
	ve, ok := err.(*input.ValidationError)
	if !ok {
		return nil
	}
	out := map[string][]string{}
	for _, field := range ve.Fields() {
		for _, msg := range ve.ByField()[field] {
			out["tags"] = append(out["tags"], tagMessage(field, msg, typed))
		}
	}
	return out
}

var (
	tagTooLong = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^The tags\.\d+ field must not be greater than (\d+) characters\.$`)
	})
	tagBadText = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^The tags\.\d+ field format is invalid\.$`) })
	tagTooMany = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^The tags field must not have more than (\d+) items\.$`)
	})
	tagPosition = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^tags\.(\d+)$`) })
)

// tagMessage words one refusal of the tags for the page.
func tagMessage(field, msg string, typed []any) string {
	if m := tagTooMany().FindStringSubmatch(msg); m != nil {
		return "A person may have at most " + m[1] + " tags."
	}
	name := ""
	if m := tagPosition().FindStringSubmatch(field); m != nil {
		if i, err := strconv.Atoi(m[1]); err == nil && i < len(typed) {
			name, _ = typed[i].(string)
		}
	}
	if name == "" {
		return msg
	}
	if m := tagTooLong().FindStringSubmatch(msg); m != nil {
		return "“" + name + "” is too long: a tag takes at most " + m[1] + " characters."
	}
	if tagBadText().MatchString(msg) {
		return "“" + name + "” holds a character a tag cannot have."
	}
	return msg
}
