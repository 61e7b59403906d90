package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// rowsChunk is how many rows one INSERT of a page's new cards writes.
const rowsChunk = 100

// putCardsTx puts a page of cards in tx, in one batch of bulk, and logs
// them. The cards new to the account are written first, with a statement
// for their persons and one for each kind of their rows rather than one
// each: a page costs PostgreSQL a few round trips, not a dozen a card.
// The others, and what a new card has beyond its rows (tags, a photo),
// follow in the page's order, as PutCard writes them.
func (s *Store) putCardsTx(ctx context.Context, tx *txn, accountID int64, ins []CardInput, bulk *bulkBatch,
	tagIDs map[string]int64) (created int, err error) {
	if err := bulk.begin(ctx); err != nil {
		return 0, err
	}
	made, done, err := s.insertNewCards(ctx, tx, accountID, ins)
	if err != nil {
		return 0, err
	}
	for i, in := range ins {
		if id, ok := made[i]; ok {
			created++
			bulk.made(id)
			if !done {
				bulk.touch(id)
			}
			if in.Tags != nil {
				err = s.setTags(ctx, tx, accountID, id, in.Tags, tagIDs)
			}
			if err == nil && in.Photo != nil {
				err = putPhoto(ctx, tx, accountID, id, in.Photo, s.now())
			}
			if err != nil {
				return created, err
			}
			continue
		}
		_, isNew, err := s.putCardTx(ctx, tx, accountID, in, nil, bulk, tagIDs)
		if err != nil {
			return created, err
		}
		if isNew {
			created++
		}
	}
	if err := bulk.end(ctx); err != nil {
		return created, err
	}
	return created, s.logAction(ctx, tx, "persons_import", fmt.Sprintf("Imported %d cards (%d new persons)", len(ins), created))
}

// insertNewCards makes the persons of the page's cards whose UID the
// account lacks, with their details, dates, note and work, and returns
// their ids by place in the page. A card whose UID an earlier card of the
// page has, one that names its resource, and one over the cap of details
// are left to putCardTx.
//
// On PostgreSQL the persons are written with their count and search text
// (done): the end of the batch would otherwise write each person's row a
// second time, a new version of it in every index of persons, trigram
// index included, a third of the server's time in an import.
func (s *Store) insertNewCards(ctx context.Context, tx *txn, accountID int64, ins []CardInput) (made map[int]int64, done bool, err error) {
	have, err := cardUIDs(ctx, tx, accountID, ins)
	if err != nil {
		return nil, false, err
	}
	var fresh []int
	taken := map[string]bool{}
	for i, in := range ins {
		if have[in.UID] || taken[in.UID] || in.Name != "" || len(in.Details) > MaxContactDetails {
			continue
		}
		taken[in.UID] = true
		fresh = append(fresh, i)
	}
	if len(fresh) == 0 {
		return nil, false, nil
	}
	done = tx.pool.bind != nil
	var seq int64
	if done {
		// card_bump counts a transaction once: the batch's end has the
		// same count.
		if err := tx.QueryRowContext(ctx, `SELECT card_bump(?)`, accountID).Scan(&seq); err != nil {
			return nil, false, fmt.Errorf("store: count a page's cards: %w", err)
		}
	}
	now := s.now()
	genders := map[string]*int64{}
	rows := make([][]any, 0, len(fresh))
	for _, i := range fresh {
		in := ins[i]
		var genderID *int64
		if in.Gender != nil {
			g, ok := genders[*in.Gender]
			if !ok {
				if g, err = cardGender(ctx, tx, accountID, in.Gender); err != nil {
					return nil, false, err
				}
				genders[*in.Gender] = g
			}
			genderID = g
		}
		var ageType *string
		var year, month, day *int64
		var remind *bool
		if b := in.Birthday; b != nil {
			exact, yes := "exact", true
			ageType, year, month, day, remind = &exact, &b.Year, b.Month, b.Day, &yes
		}
		row := []any{accountID, in.UID, nullIfEmpty(in.Name), in.FirstName, in.LastName, in.MiddleName, in.Nickname,
			in.Prefix, in.Suffix, genderID, nullIfEmpty(WithKept(in)), ageType, year, month, day, remind, now, now}
		if done {
			row = append(row, seq, in.FirstName, in.MiddleName, in.LastName, in.Nickname, cardEmails(&in))
		}
		rows = append(rows, row)
	}
	head := `INSERT INTO persons (account_id, uid, card_name, first_name, last_name, middle_name,
			nickname, prefix, suffix, gender_id, vcard_extra, age_type, age_year, age_month, age_day, yearly_reminder,
			created_at, updated_at`
	one := ""
	if done {
		// The search text as persons_search_text (migration 0042) builds
		// it once the emails are in: their values in the order of their
		// ids, by the function it calls.
		head += `, card_seq, search_text`
		one = "(" + strings.Repeat("?, ", 19) + `person_search_text(?, ?, ?, ?, NULL, ?))`
	}
	byUID := make(map[string]int64, len(fresh))
	err = insertRowsAs(ctx, tx, head+")", one, ` RETURNING id, uid`, rows, func(sc scanner) error {
		var id int64
		var uid string
		err := sc.Scan(&id, &uid)
		byUID[uid] = id
		return err
	})
	if isForeignKeyViolation(err) {
		return nil, false, ErrAccountNotFound
	}
	if err != nil {
		return nil, false, fmt.Errorf("store: create persons from cards: %w", err)
	}
	made = make(map[int]int64, len(fresh))
	for _, i := range fresh {
		made[i] = byUID[ins[i].UID]
	}
	if err := insertCardRows(ctx, tx, accountID, ins, fresh, made, now); err != nil {
		return nil, false, err
	}
	return made, done, nil
}

// cardEmails are the values of a card's emails, in the order
// insertCardRows writes them, joined by spaces; nil for none, which the
// search text skips.
func cardEmails(in *CardInput) *string {
	var emails []string
	for _, d := range in.Details {
		if d.Kind == "email" && d.Value != nil {
			emails = append(emails, *d.Value)
		}
	}
	if len(emails) == 0 {
		return nil
	}
	joined := strings.Join(emails, " ")
	return &joined
}

// insertCardRows writes the new cards' details, dates, notes and work, as
// putCardDetails, putCardDates, putCardNote and putCardWork write a new
// card's.
func insertCardRows(ctx context.Context, tx *txn, accountID int64, ins []CardInput, fresh []int, made map[int]int64, now int64) error {
	var details, dates, notes, work [][]any
	for _, i := range fresh {
		in, id := &ins[i], made[i]
		positions := map[string]int64{}
		for _, d := range in.Details {
			positions[d.Kind]++
			details = append(details, []any{accountID, id, d.Kind, d.Label, positions[d.Kind], d.Value, d.Network,
				d.Street, d.City, d.PostalCode, d.Region, d.Country, now, now})
		}
		var kept []ImportantDateInput
		for _, d := range in.Dates {
			if slices.ContainsFunc(kept, func(k ImportantDateInput) bool {
				return k.Label == d.Label && k.Month == d.Month && k.Day == d.Day &&
					(k.Year == nil) == (d.Year == nil) && (k.Year == nil || *k.Year == *d.Year)
			}) {
				continue
			}
			kept = append(kept, d)
			remind := d.RemindYearly || d.Label == "birthday" || d.Label == "anniversary"
			dates = append(dates, []any{accountID, id, d.Label, d.Year, d.Month, d.Day, remind, now, now})
		}
		if in.Note != nil && *in.Note != "" {
			notes = append(notes, []any{accountID, id, *in.Note, now, now})
		}
		if w := in.Work; w != nil {
			work = append(work, []any{accountID, id, w.JobTitle, w.CompanyName, true, now, now})
		}
	}
	writes := []struct {
		what, head string
		rows       [][]any
	}{
		{"contact details", `INSERT INTO contact_details (account_id, person_id, kind, label, position, value, network,
			street, city, postal_code, region, country, created_at, updated_at)`, details},
		{"important dates", `INSERT INTO important_dates (account_id, person_id, label, year, month, day, remind_yearly,
			created_at, updated_at)`, dates},
		{"notes", `INSERT INTO notes (account_id, person_id, content, created_at, updated_at)`, notes},
		{"work", `INSERT INTO work_history (account_id, person_id, job_title, company_name, active, created_at, updated_at)`, work},
	}
	for _, w := range writes {
		if err := insertRows(ctx, tx, w.head, "", w.rows, nil); err != nil {
			return fmt.Errorf("store: add %s from cards: %w", w.what, err)
		}
	}
	return nil
}

// cardUIDs are the UIDs of the page's cards that the account has.
func cardUIDs(ctx context.Context, tx *txn, accountID int64, ins []CardInput) (map[string]bool, error) {
	have := map[string]bool{}
	args := make([]any, 0, personChunk+1)
	err := freshPlans(ctx, tx, func() error {
		for from := 0; from < len(ins); from += personChunk {
			chunk := ins[from:min(from+personChunk, len(ins))]
			args = appendChunk(append(args[:0], accountID), chunk, func(c CardInput) any { return c.UID })
			err := eachRow(ctx, tx, `SELECT uid FROM persons WHERE account_id = ? AND uid IN `+personChunkIn, args,
				func(sc scanner) error {
					var uid string
					err := sc.Scan(&uid)
					have[uid] = true
					return err
				})
			if err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: find cards: %w", err)
	}
	return have, nil
}

// insertRows writes rows, each of the same number of values, with the
// INSERT head, rowsChunk rows a statement. With a tail (RETURNING …),
// each row it returns goes to row.
func insertRows(ctx context.Context, tx *txn, head, tail string, rows [][]any, row func(scanner) error) error {
	return insertRowsAs(ctx, tx, head, "", tail, rows, row)
}

// insertRowsAs is insertRows with the VALUES of a row written as one,
// its placeholders the row's values in order; "" is a placeholder each.
func insertRowsAs(ctx context.Context, tx *txn, head, one, tail string, rows [][]any, row func(scanner) error) error {
	if len(rows) > 0 && one == "" {
		one = "(?" + strings.Repeat(", ?", len(rows[0])-1) + ")"
	}
	for len(rows) > 0 {
		n := min(len(rows), rowsChunk)
		var q strings.Builder
		q.WriteString(head)
		q.WriteString(" VALUES ")
		args := make([]any, 0, n*len(rows[0]))
		for i, r := range rows[:n] {
			if i > 0 {
				q.WriteString(", ")
			}
			q.WriteString(one)
			args = append(args, r...)
		}
		q.WriteString(tail)
		var err error
		if row == nil {
			_, err = tx.ExecContext(ctx, q.String(), args...)
		} else {
			err = eachRow(ctx, tx, q.String(), args, row)
		}
		if err != nil {
			return err
		}
		rows = rows[n:]
	}
	return nil
}
