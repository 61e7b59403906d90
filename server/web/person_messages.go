package web

import (
	"regexp"
	"strings"
	"sync"

	"kith/server/input"
)

// plainErrors words the API's messages (input's, in the contract's
// Laravel wording, which names a field by its API name: "The value field
// must be a valid email address.") as a person reads them beside the
// field: by the field's label, or by what it holds. The API's answers
// keep their wording; only the page says it otherwise. A message no rule
// knows is shown as it is.
func plainErrors(fields []Field, errs map[string][]string) map[string][]string {
	if errs == nil {
		return nil
	}
	labels := map[string]string{}
	for _, f := range fields {
		labels[f.Name] = f.Label
	}
	out := make(map[string][]string, len(errs))
	for name, msgs := range errs {
		label, ok := labels[name]
		for _, m := range msgs {
			if ok {
				m = plainMessage(label, m)
			}
			out[name] = append(out[name], m)
		}
	}
	return out
}

// plainSays are messages that a rule would word too vaguely, or not at
// all: the contact detail's value, which is an email address, a number or
// a web address by its kind; an address; a relationship; a photo.
var plainSays = map[string]string{
	"The value field is required when kind is email.":                                              "Enter the email address.",
	"The value field is required when kind is phone.":                                              "Enter the phone number.",
	"The value field is required when kind is website.":                                            "Enter the web address.",
	"The value field is required when kind is social.":                                             "Enter the handle or the profile's web address.",
	"The network field is required when kind is social.":                                           "Enter the network: mastodon, github, …",
	"The value field format is invalid.":                                                           "Enter a phone number: it needs digits.",
	"The selected country is invalid.":                                                             "Enter a two-letter country code or the country's name in English: DE, Germany.",
	"The street field is required when none of city / postal code / region / country are present.": "Fill in at least one part of the address.",
	input.MsgSameRelatedPerson:                                                                     "Choose someone else: a person is not their own relation.",
	input.MsgPhotoRequired:                                                                         "Choose a photo to send.",
	input.MsgPhotoType:                                                                             "Choose a JPEG, PNG, GIF or WebP file.",
	input.MsgPhotoImage:                                                                            "That file is not an image Kith can read.",
	input.MsgPhotoPixels:                                                                           "That image is larger than 40 megapixels.",
	input.MsgUntilBeforeStart:                                                                      "“Until” cannot be before the first date.",
}

// plainRule words one of the contract's rules (contract.md §2) by the
// label.
type plainRule struct {
	re  *regexp.Regexp
	say string // $label is the field's label, $1… the rule's groups
}

// plainRules are compiled when a form first fails, not at start: every
// start of every kith command paid for them.
var plainRules = sync.OnceValue(func() []plainRule {
	return []plainRule{
		{regexp.MustCompile(`^The .+ field is required(?: when .+)?\.$`), "Fill in “$label”."},
		{regexp.MustCompile(`^The .+ field must be a valid email address\.$`), "Enter a valid email address, such as ada@example.com."},
		{regexp.MustCompile(`^The .+ field must be a valid URL\.$`), "Enter a web address that starts with http:// or https://."},
		{regexp.MustCompile(`^The .+ field must not be greater than (\d+) characters\.$`), "“$label” takes at most $1 characters."},
		{regexp.MustCompile(`^The selected .+ is invalid\.$`), "Choose one of the choices of “$label”."},
		{regexp.MustCompile(`^The .+ field must be an integer\.$`), "“$label” takes a whole number."},
		{regexp.MustCompile(`^The .+ field must be between (-?\d+) and (-?\d+)\.$`), "“$label” takes a number from $1 to $2."},
		{regexp.MustCompile(`^The .+ field must be a valid date\.$`), "“$label” is not a date Kith can read."},
		{regexp.MustCompile(`^The .+ field must match the format Y-m-d\.$`), "Enter “$label” as YYYY-MM-DD."},
		{regexp.MustCompile(`^The .+ field must be a date before or equal to (.+)\.$`), "“$label” cannot be later than $1."},
		{regexp.MustCompile(`^The .+ field must be a valid day of the month\.$`), "That month has no such day."},
		{regexp.MustCompile(`^The .+ field must be true or false\.$`), "“$label” is yes or no."},
		{regexp.MustCompile(`^The .+ field format is invalid\.$`), "“$label” is not in a form Kith can read."},
		{regexp.MustCompile(`^The .+ field must be a date between (\S+) and (\S+)\.$`), "“$label” takes a date from $1 to $2."},
	}
})

func plainMessage(label, msg string) string {
	if say, ok := plainSays[msg]; ok {
		return say
	}
	for _, r := range plainRules() {
		m := r.re.FindStringSubmatchIndex(msg)
		if m == nil {
			continue
		}
		say := strings.ReplaceAll(r.say, "$label", label)
		return string(r.re.ExpandString(nil, say, msg, m))
	}
	return msg
}
