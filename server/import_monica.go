package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
)

// handleMonicaImport imports a Monica v4 JSON export into the caller's
// account (import-formats.md §1, §4): the body itself, or the file part of
// a multipart form; dry_run in the query or the form (the form wins).
func (s *Server) handleMonicaImport(c echo.Context) error {
	sess, _ := input.Session(c)
	takeTime(c)
	// The file goes to a temporary file, which the import reads twice
	// (checked, then written) without holding it in memory.
	up, err := transfer.ReadUpload(c.Request(), []string{"dry_run"}, input.ErrInvalidJSON)
	if err != nil {
		return err
	}
	defer up.Close()
	dry, err := dryRun(up)
	if err != nil {
		return err
	}
	out, err := transfer.ImportMonicaUpload(c.Request().Context(), s.store, sess.AccountID, sess.Timezone, up,
		dry, input.ErrInvalidJSON)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[*transfer.MonicaAnswer]{out})
}
