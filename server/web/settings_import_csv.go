package web

import (
	"io"
	"net/http"
	"os"
	"strconv"
	"strings"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
)

// A CSV file's import adds a step to Monica's: when the file is "another
// spreadsheet", or its header is none Kith knows, a page asks what each
// column holds, with a select per column prefilled from its header's name.

// csvFormatNames are the formats as the pages name them.
var csvFormatNames = map[string]string{
	transfer.CSVGoogle: "Google Contacts", transfer.CSVOutlook: "Outlook", transfer.CSVGeneric: "a spreadsheet",
}

// csvFormats are the Data page's choices of format; "" has Kith detect it.
var csvFormats = []Option{{"", "Detect"}, {transfer.CSVGoogle, "Google Contacts"}, {transfer.CSVOutlook, "Outlook"},
	{transfer.CSVGeneric, "Another spreadsheet"}}

// csvForm is the Data page's form of a CSV file.
func csvForm(csrf string) Form {
	return Form{ID: "csv", Action: "/settings/import/csv", Submit: "Check file", CSRF: csrf, Multipart: true, Fields: []Field{
		{Name: "file", Label: "CSV file", Type: "file", Required: true,
			Hint: "Google Contacts, Outlook, or any spreadsheet saved as CSV. For another spreadsheet, you say what each column holds."},
		{Name: "format", Label: "Format", Type: "select", Options: csvFormats},
	}}
}

// prepareCSV reads the format asked for and the file's header: another
// spreadsheet, or a header Kith does not know, has its columns mapped
// first. A file that is not CSV (a broken line, too many rows) is refused
// before.
func (a *App) prepareCSV(c echo.Context, up *transfer.Upload, f *spooled) (bool, error) {
	format, _ := up.Options["format"].(string)
	if format != "" && csvFormatNames[format] == "" {
		return false, input.Invalid("format", "The selected format is invalid.")
	}
	if up.Size == 0 {
		return false, transfer.FileMissing()
	}
	if up.Size > transfer.MaxCSVBytes {
		return false, input.ErrBodyTooLarge
	}
	file, err := input.ReadAll(io.NewSectionReader(up.File, 0, up.Size), up.Size)
	if err != nil {
		return false, err
	}
	header, detected, err := transfer.CSVHeader(file)
	if err != nil {
		return false, err
	}
	f.header = header
	f.csv.Format = format
	if format != "" && format != transfer.CSVGeneric || format == "" && detected != "" && detected != transfer.CSVGeneric {
		return false, nil
	}
	// Another spreadsheet: every record read as one, before the person
	// spends time on its columns.
	f.csv = transfer.CSVOptions{Format: transfer.CSVGeneric, Mapping: transfer.CSVMapping{}}
	return true, transfer.CheckCSV(file, f.csv)
}

// runCSV imports (or checks) a CSV file as POST /api/import/csv does.
func (a *App) runCSV(c echo.Context, up *transfer.Upload, f *spooled, dryRun bool) (importOutcome, error) {
	sess, _ := input.Session(c)
	if up.Size == 0 {
		return importOutcome{}, transfer.FileMissing()
	}
	ans, err := transfer.ImportCSV(c.Request().Context(), a.store, sess.AccountID, sess.Timezone, up.File, up.Size, f.csv, dryRun)
	if err != nil {
		return importOutcome{}, err
	}
	return importOutcome{PeopleAnswer: ans.PeopleAnswer, answer: ans}, nil
}

// csvColumnsView is the page that maps a file's columns.
type csvColumnsView struct {
	Form   Form
	Cancel string
}

// csvColumnsForm is the columns' form: a select per column of header,
// labelled by its name, chosen from values (the form sent) else from the
// mapping the file has, else from the name.
func csvColumnsForm(action, csrf string, header []string, mapping transfer.CSVMapping) Form {
	options := make([]Option, len(transfer.CSVFields))
	for i, name := range transfer.CSVFields {
		options[i] = Option{name, fieldLabel(name)}
	}
	chosen := map[string]string{}
	for _, m := range mapping {
		chosen[m.Header] = m.Field
	}
	f := Form{ID: "columns", Action: action, Submit: "Check file", CSRF: csrf}
	for i, h := range header {
		label := h
		if label == "" {
			label = "Column " + strconv.Itoa(i+1)
		}
		value, ok := chosen[h]
		if !ok {
			value = fieldNamed(h)
		}
		f.Fields = append(f.Fields, Field{Name: "c" + strconv.Itoa(i), Label: label, Type: "select", Options: options, Value: value})
	}
	return f
}

// fieldLabel is a field's name as a select shows it: first_name is
// "First name".
func fieldLabel(name string) string {
	return strings.ToUpper(name[:1]) + strings.ReplaceAll(name[1:], "_", " ")
}

// fieldNamed is the field a column's name says, ignoring case, spaces,
// hyphens and underscores ("E-mail", "Postal Code"), else "ignore".
func fieldNamed(header string) string {
	squash := strings.NewReplacer(" ", "", "-", "", "_", "")
	h := squash.Replace(strings.ToLower(header))
	for _, name := range transfer.CSVFields {
		if squash.Replace(name) == h {
			return name
		}
	}
	return "ignore"
}

// handleCSVColumns is the page that asks what each column holds.
func (a *App) handleCSVColumns(c echo.Context) error {
	f, err := a.spooledOf(c, "csv", false)
	if f == nil {
		return err
	}
	return a.csvColumnsPage(c, http.StatusOK, f, nil)
}

func (a *App) csvColumnsPage(c echo.Context, status int, f *spooled, refused *input.ValidationError) error {
	base := "/settings/import/csv/" + c.Param("token")
	form := csvColumnsForm(base+"/columns", csrf(c), f.header, f.csv.Mapping)
	if refused != nil {
		form = form.Fill(c.Request().PostForm, input.FieldErrors(refused))
		for _, field := range refused.Fields() {
			if !strings.HasPrefix(field, "c") {
				form.Errors = append(form.Errors, refused.ByField()[field]...)
			}
		}
	}
	return a.render(c, status, "settings_import_columns", Page{Title: "Import a CSV file", Nav: "settings",
		Data: csvColumnsView{Form: form, Cancel: base + "/cancel"}})
}

// handleCSVColumnsSave reads the columns' fields and checks the file with
// them, as the Data page's form checks a file of a known format.
func (a *App) handleCSVColumnsSave(c echo.Context) error {
	f, err := a.spooledOf(c, "csv", false)
	if f == nil {
		return err
	}
	form := c.Request().PostForm
	mapping := transfer.CSVMapping{}
	refused := &input.ValidationError{}
	for i, h := range f.header {
		name := "c" + strconv.Itoa(i)
		field := form.Get(name)
		if !fieldKnown(field) {
			refused.Add(name, "The selected field is invalid.")
			continue
		}
		mapping = append(mapping, transfer.CSVMapEntry{Header: h, Field: field})
	}
	if len(refused.Fields()) > 0 {
		return a.csvColumnsPage(c, http.StatusUnprocessableEntity, f, refused)
	}
	f.csv = transfer.CSVOptions{Format: transfer.CSVGeneric, Mapping: mapping}
	file, err := os.Open(f.path)
	if err != nil {
		return a.importExpired(c, "csv")
	}
	out, err := a.runCSV(c, &transfer.Upload{File: file, Size: f.size, Form: true}, f, true)
	file.Close()
	if ve, ok := err.(*input.ValidationError); ok {
		return a.csvColumnsPage(c, http.StatusUnprocessableEntity, f, ve)
	}
	if err != nil {
		return err
	}
	token := c.Param("token")
	if !a.spool.update(token, func(kept *spooled) { kept.csv, kept.answer = f.csv, &out }) {
		return a.importExpired(c, "csv")
	}
	return c.Redirect(http.StatusSeeOther, "/settings/import/csv/"+token)
}

func fieldKnown(field string) bool {
	for _, name := range transfer.CSVFields {
		if name == field {
			return true
		}
	}
	return false
}
