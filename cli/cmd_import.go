package cli

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
	"text/tabwriter"

	"github.com/rs/zerolog"

	"kith/config"
	"kith/server/input"
	"kith/server/transfer"
	"kith/store"
)

func importFlags(fs *flag.FlagSet) action {
	email := fs.String("email", "", "import into the account of the user with this `EMAIL` (required), which must have no persons")
	from := fs.String("from", "", "read the document from `FILE` (required), as kith export or GET /api/export wrote it; - reads standard input")
	return func(ctx context.Context, cfg *config.Config, _ zerolog.Logger, stdout io.Writer) error {
		return importAccount(ctx, cfg, *email, *from, stdout)
	}
}

// importAccount does what POST /api/import does, from a file and without
// its 50 MiB limit. It writes in one transaction, so a server may run
// beside it.
func importAccount(ctx context.Context, cfg *config.Config, email, from string, stdout io.Writer) error {
	if strings.TrimSpace(email) == "" || from == "" {
		return errors.New("import needs --email EMAIL and --from FILE")
	}
	doc, size, closeDoc, err := openDocument(from)
	if err != nil {
		return err
	}
	defer closeDoc()
	st, u, err := openUser(ctx, cfg, email)
	if err != nil {
		return err
	}
	defer st.Close()
	// The import is logged as the user's, as through the API.
	n, err := transfer.ImportDocument(store.WithActor(ctx, u.ID), st, u.AccountID, u.ID, u.Timezone, doc, size)
	var invalid *input.ValidationError
	switch {
	case errors.Is(err, transfer.ErrNotJSON):
		return fmt.Errorf("%s is not valid JSON", from)
	case errors.Is(err, transfer.ErrNotJSONObject):
		return fmt.Errorf("%s is not a JSON object, as an export is", from)
	case errors.Is(err, store.ErrAccountHasPersons):
		return fmt.Errorf("the account of %s has persons already: an import restores an export into an account that has none", u.Email)
	case errors.As(err, &invalid):
		return fmt.Errorf("%s was not imported, nothing was written:\n  %s", from, strings.Join(invalid.Messages(), "\n  "))
	case err != nil:
		return err
	}
	fmt.Fprintf(stdout, "imported into account %d of %s:\n", u.AccountID, u.Email)
	tw := tabwriter.NewWriter(stdout, 0, 0, 2, ' ', 0)
	for _, row := range []struct {
		what string
		n    int
	}{
		{"persons", n.Persons}, {"contact details", n.ContactDetails}, {"important dates", n.ImportantDates},
		{"notes", n.Notes}, {"gifts", n.Gifts}, {"life events", n.LifeEvents}, {"work history", n.WorkHistory},
		{"tasks", n.Tasks}, {"interactions", n.Interactions}, {"stay in touch", n.StayInTouch},
		{"task categories", n.TaskCategories}, {"genders", n.Genders}, {"journals", n.Journals},
		{"journal entries", n.JournalEntries}, {"relationship types", n.RelationshipTypes},
		{"relationships", n.Relationships}, {"tags", n.Tags},
		{"photos", n.Photos}, {"merged by name", n.Merged},
	} {
		fmt.Fprintf(tw, "  %s\t%d\n", row.what, row.n)
	}
	return tw.Flush()
}

// openDocument is the export document at from, read twice by the import:
// a file is read where it is; standard input (-), which cannot be read
// twice, is kept in memory.
func openDocument(from string) (doc io.ReaderAt, size int64, closeDoc func() error, err error) {
	if from == "-" {
		b, err := io.ReadAll(os.Stdin)
		return bytes.NewReader(b), int64(len(b)), func() error { return nil }, err
	}
	f, err := os.Open(from)
	if err != nil {
		return nil, 0, nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, 0, nil, err
	}
	return f, fi.Size(), f.Close, nil
}
