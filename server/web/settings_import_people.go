package web

import (
	"net/http"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
)

// The imports of people from another tool (Monica, a CSV file) in three
// steps: the form on the Data page sends the file, which is checked by a
// dry run and kept (import_spool.go); the check's page says what the
// import would do; its Import button imports the kept file, its Cancel
// button deletes it.

// msgImportExpired is the Data page's answer to a check whose file is gone:
// an hour passed, it was imported or cancelled, or another server (or
// this one before a restart) checked it.
const msgImportExpired = "This import has expired: choose the file again."

// importTime is how long an import's file may take to arrive, and its
// check or import to run, as the API's import routes allow: longer than
// the server's 30 s for a request.
const importTime = 10 * time.Minute

// longImport gives a signed-in user's request importTime, before the form
// (its file) is read.
func longImport(next echo.HandlerFunc) echo.HandlerFunc {
	return func(c echo.Context) error {
		if _, ok := input.Session(c); ok {
			rc := http.NewResponseController(c.Response())
			_ = rc.SetReadDeadline(time.Now().Add(importTime)) // unsupported in tests
			_ = rc.SetWriteDeadline(time.Now().Add(importTime))
		}
		return next(c)
	}
}

// peopleImport is a kind of people import, as the pages run it.
type peopleImport struct {
	title string
	// options are the form's fields the check reads beside the file.
	options []string
	// prepare reads the options and the file before the check into f;
	// columns says that the person must map the file's columns first.
	prepare func(a *App, c echo.Context, up *transfer.Upload, f *spooled) (columns bool, err error)
	// run checks (dryRun) or imports the file as f's options say.
	run func(a *App, c echo.Context, up *transfer.Upload, f *spooled, dryRun bool) (importOutcome, error)
}

// peopleImports are the kinds of people import the pages run.
var peopleImports = map[string]peopleImport{
	"monica": {title: "Import from Monica", run: (*App).runMonica},
	"csv":    {title: "Import a CSV file", options: []string{"format"}, prepare: (*App).prepareCSV, run: (*App).runCSV},
}

// peopleImportKinds are peopleImports' keys, in the routes' order.
var peopleImportKinds = []string{"monica", "csv"}

// importOutcome is a people import's answer, as the pages show it.
type importOutcome struct {
	transfer.PeopleAnswer
	answer any // the whole answer, for its own parts
}

// runMonica imports (or checks) a Monica export as POST
// /api/import/monica does.
func (a *App) runMonica(c echo.Context, up *transfer.Upload, _ *spooled, dryRun bool) (importOutcome, error) {
	sess, _ := input.Session(c)
	ans, err := transfer.ImportMonicaUpload(c.Request().Context(), a.store, sess.AccountID, sess.Timezone, up, dryRun,
		input.ErrInvalidJSON)
	if err != nil {
		return importOutcome{}, err
	}
	return importOutcome{PeopleAnswer: ans.PeopleAnswer, answer: ans}, nil
}

// handlePeopleImportCheck checks the file of the form of kind by a dry
// run, keeps it, and sends the browser to the check's page (or first to
// the page that maps its columns); a file Kith refuses goes back to the
// Data page with its error beside the field.
func (a *App) handlePeopleImportCheck(kind string) echo.HandlerFunc {
	imp := peopleImports[kind]
	return func(c echo.Context) error {
		sess, _ := input.Session(c)
		up, err := transfer.ReadUpload(c.Request(), imp.options, input.ErrInvalidForm)
		if err != nil {
			return a.peopleImportFailed(c, kind, err)
		}
		kept := false
		defer func() {
			if !kept {
				up.Close()
			}
		}()
		f := &spooled{kind: kind, user: sess.UserID, account: sess.AccountID}
		columns := false
		if imp.prepare != nil {
			if columns, err = imp.prepare(a, c, up, f); err != nil {
				return a.peopleImportFailed(c, kind, err)
			}
		}
		if !columns {
			out, err := imp.run(a, c, up, f, true)
			if err != nil {
				return a.peopleImportFailed(c, kind, err)
			}
			f.answer = &out
		}
		token, err := a.spool.keep(f, up, a.store.Now())
		if err != nil {
			return err
		}
		kept = true
		to := "/settings/import/" + kind + "/" + token
		if columns {
			to += "/columns"
		}
		return c.Redirect(http.StatusSeeOther, to)
	}
}

// peopleImportFailed answers a refused file: the Data page, its form
// open with the error beside its file field (or the field it names), the
// options chosen kept.
func (a *App) peopleImportFailed(c echo.Context, kind string, err error) error {
	status := http.StatusUnprocessableEntity
	if input.FieldErrors(err) == nil {
		ie, ok := err.(*input.Error)
		if !ok || ie.Status >= http.StatusInternalServerError {
			return err
		}
		status, err = ie.Status, input.Invalid("file", ie.Message)
	}
	return a.settingsPage(c, status, "data", failedForm(c, kind, err))
}

// importTooLarge answers a file over its import's limit, which the
// server refuses before the form is read, as any refused file: the Data
// page, the words beside the field. It reports whether the request was
// such a form's.
func (a *App) importTooLarge(c echo.Context, message string) bool {
	r := c.Request()
	kind, ok := strings.CutPrefix(r.URL.Path, "/settings/import/")
	if _, known := peopleImports[kind]; !ok || !known || r.Method != http.MethodPost {
		return false
	}
	if sess, ok := input.Session(c); !ok || !sess.Verified {
		return false
	}
	err := a.settingsPage(c, http.StatusRequestEntityTooLarge, "data",
		settingsState{failed: failed{form: kind, errs: input.FieldErrors(input.Invalid("file", message))}})
	if err != nil {
		a.log.Warn().Err(err).Str("request_id", a.o.RequestID(c)).Msg("writing the Data page failed")
	}
	return true
}

// importExpired is the Data page saying that the check's file is gone.
func (a *App) importExpired(c echo.Context, kind string) error {
	return a.settingsPage(c, http.StatusGone, "data",
		settingsState{failed: failed{form: kind, errs: input.FieldErrors(input.Invalid("file", msgImportExpired))}})
}

// spooledOf is the kept file the path's token names: another user's is
// not found, one that is gone the Data page's 410.
func (a *App) spooledOf(c echo.Context, kind string, take bool) (*spooled, error) {
	sess, _ := input.Session(c)
	find := a.spool.find
	if take {
		find = a.spool.take
	}
	f, foreign := find(c.Param("token"), kind, sess.UserID, sess.AccountID, a.store.Now())
	switch {
	case foreign:
		return nil, echo.ErrNotFound
	case f == nil:
		return nil, a.importExpired(c, kind)
	}
	return f, nil
}

// handlePeopleImportShow is the check's page: what the import would do,
// and the buttons Import and Cancel.
func (a *App) handlePeopleImportShow(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		f, err := a.spooledOf(c, kind, false)
		if f == nil {
			return err
		}
		base := "/settings/import/" + kind + "/" + c.Param("token")
		if f.answer == nil {
			return c.Redirect(http.StatusSeeOther, base+"/columns")
		}
		v := newImportCheckView(peopleImports[kind].title, base, *f.answer)
		v.Columns = f.csv.Format == transfer.CSVGeneric
		return a.render(c, http.StatusOK, "settings_import_check", Page{Title: v.Title, Nav: "settings", Data: v})
	}
}

// handlePeopleImportRun imports the kept file, once: a second press of
// Import finds it gone.
func (a *App) handlePeopleImportRun(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		f, err := a.spooledOf(c, kind, true)
		if f == nil {
			return err
		}
		if f.answer == nil { // Import before the columns were mapped
			a.spool.putBack(c.Param("token"), f)
			return c.Redirect(http.StatusSeeOther, "/settings/import/"+kind+"/"+c.Param("token")+"/columns")
		}
		file, err := os.Open(f.path)
		if err != nil {
			return a.importExpired(c, kind) // swept from the temporary directory
		}
		out, err := peopleImports[kind].run(a, c, &transfer.Upload{File: file, Size: f.size, Form: true}, f, false)
		file.Close()
		if err != nil && input.FieldErrors(err) == nil {
			// Nothing was written (an import is one transaction): the
			// same file may be tried again.
			a.spool.putBack(c.Param("token"), f)
			return err
		}
		f.drop()
		if err != nil {
			return a.peopleImportFailed(c, kind, err)
		}
		return a.seeOther(c, "/people", "Imported "+count(out.Created, "person", "people")+"; updated "+strconv.Itoa(out.Updated)+".")
	}
}

// handlePeopleImportCancel deletes the kept file.
func (a *App) handlePeopleImportCancel(kind string) echo.HandlerFunc {
	return func(c echo.Context) error {
		sess, _ := input.Session(c)
		f, foreign := a.spool.take(c.Param("token"), kind, sess.UserID, sess.AccountID, a.store.Now())
		if foreign {
			return echo.ErrNotFound
		}
		if f != nil {
			f.drop()
		}
		return a.seeOther(c, "/settings/data", "Import cancelled: nothing was imported.")
	}
}
