package server

import (
	"errors"
	"io"
	"mime"
	"net/http"
	"os"
	"time"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
)

// handleMonicaImport imports a Monica v4 JSON export into the caller's
// account (import-formats.md §1, §4): the body itself, or the file part of
// a multipart form; dry_run in the query or the form (the form wins).
func (s *Server) handleMonicaImport(c echo.Context) error {
	sess, _ := input.Session(c)
	// A large file takes longer to arrive, and to import, than the
	// server's 30 s for a request.
	rc := http.NewResponseController(c.Response())
	_ = rc.SetReadDeadline(time.Now().Add(transferTime)) // unsupported in tests
	_ = rc.SetWriteDeadline(time.Now().Add(transferTime))
	// The file goes to a temporary file, which the import reads twice
	// (checked, then written) without holding it in memory.
	doc, err := os.CreateTemp("", "kith-monica-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(doc.Name())
	defer doc.Close()
	options := map[string]any{}
	if v, ok := c.QueryParams()["dry_run"]; ok && len(v) > 0 {
		options["dry_run"] = v[len(v)-1]
	}
	mt, _, _ := mime.ParseMediaType(c.Request().Header.Get(echo.HeaderContentType))
	form := mt == echo.MIMEMultipartForm
	var size int64
	if form {
		size, err = monicaFormFile(c.Request(), doc, options)
	} else {
		size, err = io.Copy(doc, c.Request().Body)
		if err != nil {
			err = input.BodyError(err, input.ErrInvalidJSON)
		}
	}
	if err != nil {
		return err
	}
	if size == 0 {
		return transfer.FileMissing()
	}
	p := input.NewParams(options)
	dryRun := p.Boolean("dry_run")
	if err := p.Err(); err != nil {
		return err
	}
	out, err := transfer.ImportMonica(c.Request().Context(), s.store, sess.AccountID, sess.Timezone, doc, size,
		dryRun != nil && *dryRun)
	var syn *transfer.SyntaxError
	if errors.As(err, &syn) {
		if !form {
			return input.ErrInvalidJSON
		}
		return input.Invalid("file", syn.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[*transfer.MonicaAnswer]{out})
}

// monicaFormFile copies the form's file part into doc, a part at a time
// as the body comes, and reads the form's options; it answers the file's
// size, 0 when there is none.
func monicaFormFile(r *http.Request, doc io.Writer, options map[string]any) (int64, error) {
	mr, err := r.MultipartReader()
	if err != nil {
		return 0, input.ErrInvalidForm
	}
	var size int64
	found := false
	for {
		part, err := mr.NextPart()
		if err == io.EOF {
			break
		}
		if err != nil {
			return 0, input.BodyError(err, input.ErrInvalidForm)
		}
		switch name := part.FormName(); {
		case name == "file" && !found:
			found = true
			size, err = io.Copy(doc, part)
		case name == "dry_run":
			var v []byte
			v, err = io.ReadAll(io.LimitReader(part, 64))
			options[name] = string(v)
		default:
			_, err = io.Copy(io.Discard, part)
		}
		part.Close()
		if err != nil {
			return 0, input.BodyError(err, input.ErrInvalidForm)
		}
	}
	return size, nil
}
