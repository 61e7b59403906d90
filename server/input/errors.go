package input

import (
	"net/http"
	"strconv"
)

// Error is an error with the status and message a client sees.
type Error struct {
	Status  int
	Message string
}

func (e *Error) Error() string { return strconv.Itoa(e.Status) + " " + e.Message }

// The errors of the contract (§2) that are not tied to one resource.
var (
	ErrUnauthenticated    = &Error{http.StatusUnauthorized, "Unauthenticated."}
	ErrInvalidCredentials = &Error{http.StatusUnauthorized, "Invalid credentials"}
	ErrInvalidJSON        = &Error{http.StatusBadRequest, "The request body is not valid JSON."}
	ErrNotJSONObject      = &Error{http.StatusBadRequest, "The request body must be a JSON object."}
	ErrInvalidForm        = &Error{http.StatusBadRequest, "The request body is not a valid form."}
	ErrBodyTooLarge       = &Error{http.StatusRequestEntityTooLarge, "The request body is too large."}
	ErrTooManyAttempts    = &Error{http.StatusTooManyRequests, "Too Many Attempts."}
	ErrUnavailable        = &Error{http.StatusServiceUnavailable, "Service Unavailable."}
	ErrServer             = &Error{http.StatusInternalServerError, "Server Error."}
)

// ValidationError holds every failed rule of one request, field by field in
// the order the fields were checked.
type ValidationError struct {
	fields   []string
	messages map[string][]string
}

func (v *ValidationError) Add(field, msg string) {
	if v.messages == nil {
		v.messages = make(map[string][]string)
	}
	if _, seen := v.messages[field]; !seen {
		v.fields = append(v.fields, field)
	}
	v.messages[field] = append(v.messages[field], msg)
}

// Invalid returns a validation error of one field and message.
func Invalid(field, msg string) *ValidationError {
	v := &ValidationError{}
	v.Add(field, msg)
	return v
}

// Error is Laravel's summary: the first message, then how many more.
func (v *ValidationError) Error() string {
	n := 0
	for _, msgs := range v.messages {
		n += len(msgs)
	}
	msg := v.messages[v.fields[0]][0]
	switch n - 1 {
	case 0:
		return msg
	case 1:
		return msg + " (and 1 more error)"
	default:
		return msg + " (and " + strconv.Itoa(n-1) + " more errors)"
	}
}

// Messages lists every failure's message, field by field: for the command
// line, which has no errors object to show.
func (v *ValidationError) Messages() []string {
	var out []string
	for _, f := range v.fields {
		out = append(out, v.messages[f]...)
	}
	return out
}

// Fields lists the fields that failed, in the order they were checked.
func (v *ValidationError) Fields() []string { return v.fields }

// ByField is every failure's messages by field, as the errors object of
// the answer and the form beside each field show them.
func (v *ValidationError) ByField() map[string][]string { return v.messages }

// ErrAccountHasPersons refuses an import into an account that has persons.
var ErrAccountHasPersons = &Error{Status: http.StatusConflict,
	Message: "This account has persons already: an import restores an export into an account that has none."}
