package server

import (
	"errors"
	"net/http"
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
	up, err := transfer.ReadUpload(c.Request(), []string{"dry_run"}, input.ErrInvalidJSON)
	if err != nil {
		return err
	}
	defer up.Close()
	if up.Size == 0 {
		return transfer.FileMissing()
	}
	p := input.NewParams(up.Options)
	dryRun := p.Boolean("dry_run")
	if err := p.Err(); err != nil {
		return err
	}
	out, err := transfer.ImportMonica(c.Request().Context(), s.store, sess.AccountID, sess.Timezone, up.File, up.Size,
		dryRun != nil && *dryRun)
	var syn *transfer.SyntaxError
	if errors.As(err, &syn) {
		if !up.Form {
			return input.ErrInvalidJSON
		}
		return input.Invalid("file", syn.Error())
	}
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[*transfer.MonicaAnswer]{out})
}
