package server

import (
	"errors"
	"io"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
	"kith/store"
)

// transferTime is how long an export may take to send, or an import to
// arrive: longer than the server's 30 s for one request, for a large
// account over a slow line.
const transferTime = 10 * time.Minute

// takeTime gives the request transferTime to arrive and its answer as
// long to leave (a large import is also slow to write), where the
// connection allows it: a test's recorder does not.
func takeTime(c echo.Context) {
	rc := http.NewResponseController(c.Response())
	_ = rc.SetReadDeadline(time.Now().Add(transferTime))
	_ = rc.SetWriteDeadline(time.Now().Add(transferTime))
}

// dryRun reads an import's dry_run option, in any form the API takes a
// boolean in.
func dryRun(up *transfer.Upload) (bool, error) {
	p := input.NewParams(map[string]any{"dry_run": up.Options["dry_run"]})
	v := p.Boolean("dry_run")
	if err := p.Err(); err != nil {
		return false, err
	}
	return v != nil && *v, nil
}

// handleExport streams the account as an export document: the persons
// leave a batch at a time, each batch flushed to the client.
func (s *Server) handleExport(c echo.Context) error {
	sess, _ := input.Session(c)
	res := c.Response()
	_ = http.NewResponseController(res).SetWriteDeadline(time.Now().Add(transferTime)) // unsupported in tests
	res.Header().Set(echo.HeaderContentType, echo.MIMEApplicationJSON)
	res.Header().Set(echo.HeaderContentDisposition,
		`attachment; filename="kith-export-`+s.store.Now().UTC().Format(time.DateOnly)+`.json"`)
	flush := func() error {
		if c.Request().Method != http.MethodHead { // a HEAD's status waits for the length of what it drops
			return http.NewResponseController(res).Flush()
		}
		return nil
	}
	_, err := transfer.WriteExport(c.Request().Context(), s.store, sess.AccountID, sess.UserID, res, flush)
	if err == nil || !res.Committed {
		if err != nil {
			res.Header().Del(echo.HeaderContentDisposition) // an error body is no export
		}
		return err
	}
	// The answer has begun, and cannot become an error: the log says why,
	// and the connection is cut, so that the client sees a failed transfer
	// rather than a document that merely stops.
	ev := s.log.Error()
	if c.Request().Context().Err() != nil {
		ev = s.log.Info() // the client went away
	}
	ev.Err(err).Str("request_id", requestID(c)).Msg("the export stopped after its answer began")
	panic(http.ErrAbortHandler)
}

type importJSON struct {
	Object            string `json:"object"`
	Persons           int    `json:"persons"`
	ContactDetails    int    `json:"contact_details"`
	ImportantDates    int    `json:"important_dates"`
	Notes             int    `json:"notes"`
	Gifts             int    `json:"gifts"`
	LifeEvents        int    `json:"life_events"`
	WorkHistory       int    `json:"work_history"`
	Tasks             int    `json:"tasks"`
	Interactions      int    `json:"interactions"`
	StayInTouch       int    `json:"stay_in_touch"`
	TaskCategories    int    `json:"task_categories"`
	Genders           int    `json:"genders"`
	Journals          int    `json:"journals"`
	JournalEntries    int    `json:"journal_entries"`
	RelationshipTypes int    `json:"relationship_types"`
	Relationships     int    `json:"relationships"`
	Tags              int    `json:"tags"`
	Photos            int    `json:"photos"`
	Merged            int    `json:"merged"`
}

// handleImport restores an export document, the body, into the caller's
// account, which must have no persons yet. The body is JSON whatever its
// Content-Type says (curl's --data-binary sends a form's).
func (s *Server) handleImport(c echo.Context) error {
	sess, _ := input.Session(c)
	// Refused before the body is read: a client with persons need not send
	// (nor the server take in) megabytes to learn it. The import checks
	// again in its transaction, for a person added meanwhile.
	if has, err := s.store.HasPersons(c.Request().Context(), sess.AccountID); err != nil {
		return err
	} else if has {
		return input.ErrAccountHasPersons
	}
	_ = http.NewResponseController(c.Response()).SetReadDeadline(time.Now().Add(transferTime)) // unsupported in tests
	// The document goes to a temporary file, which the import reads twice
	// (checked, then written): in memory it was the whole document at once,
	// 50 MiB and more for the decoding around it.
	doc, err := os.CreateTemp("", "kith-import-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(doc.Name())
	defer doc.Close()
	size, err := io.Copy(doc, c.Request().Body)
	if err != nil {
		return input.BodyError(err, input.ErrInvalidJSON)
	}
	n, err := transfer.ImportDocument(c.Request().Context(), s.store, sess.AccountID, sess.UserID, sess.Timezone, doc, size)
	switch {
	case errors.Is(err, transfer.ErrNotJSON):
		return input.ErrInvalidJSON
	case errors.Is(err, transfer.ErrNotJSONObject):
		return input.ErrNotJSONObject
	case errors.Is(err, store.ErrAccountHasPersons):
		return input.ErrAccountHasPersons
	case err != nil:
		return err
	}
	return c.JSON(http.StatusOK, dataBody[importJSON]{importJSON{Object: "import",
		Persons: n.Persons, ContactDetails: n.ContactDetails, ImportantDates: n.ImportantDates, Notes: n.Notes,
		Gifts: n.Gifts, LifeEvents: n.LifeEvents, WorkHistory: n.WorkHistory, Tasks: n.Tasks,
		Interactions: n.Interactions, StayInTouch: n.StayInTouch, TaskCategories: n.TaskCategories,
		Genders: n.Genders, Journals: n.Journals, JournalEntries: n.JournalEntries,
		RelationshipTypes: n.RelationshipTypes, Relationships: n.Relationships, Tags: n.Tags, Photos: n.Photos, Merged: n.Merged}})
}
