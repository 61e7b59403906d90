package server

import (
	"net/http"

	"github.com/labstack/echo/v4"

	"kith/server/input"
	"kith/server/transfer"
)

// handleCSVImport imports a CSV file of contacts into the caller's account
// (import-formats.md §1, §5): the body itself, or the file part of a
// multipart form; dry_run, format and mapping in the query or the form
// (the form wins).
func (s *Server) handleCSVImport(c echo.Context) error {
	sess, _ := input.Session(c)
	takeTime(c)
	up, err := transfer.ReadUpload(c.Request(), []string{"dry_run", "format", "mapping"}, input.ErrInvalidForm)
	if err != nil {
		return err
	}
	defer up.Close()
	dry, err := dryRun(up)
	if err != nil {
		return err
	}
	format, _ := up.Options["format"].(string)
	mapping, _ := up.Options["mapping"].(string)
	m, err := transfer.ParseCSVMapping(mapping)
	if err != nil {
		return err
	}
	if up.Size == 0 {
		return transfer.FileMissing()
	}
	// The file, at most 20 MiB, is read into memory once: it is read
	// twice, checked whole and then written a row at a time.
	out, err := transfer.ImportCSV(c.Request().Context(), s.store, sess.AccountID, sess.Timezone, up.File, up.Size,
		transfer.CSVOptions{Format: format, Mapping: m}, dry)
	if err != nil {
		return err
	}
	return c.JSON(http.StatusOK, dataBody[*transfer.CSVAnswer]{out})
}
