package store

import (
	"bufio"
	"context"
	"database/sql"
	_ "embed"
	"errors"
	"fmt"
	"net/url"
	"strings"
	"sync"
	"unicode"
)

// ErrContactDetailNotFound reports a contact detail that is not the
// person's.
var ErrContactDetailNotFound = &NotFoundError{What: "contact detail"}

// MaxContactDetails is the most contact details a person may have, of
// every kind together: more than any address book gives one person, and
// few enough that the write of them all (a card's, an import's) holds the
// writer for a moment only. Every way in meets it in the store, in the
// transaction of the write.
const MaxContactDetails = 1000

// ErrTooManyContactDetails refuses a write that would give a person more
// than MaxContactDetails contact details.
var ErrTooManyContactDetails = fmt.Errorf("store: a person may have at most %d contact details", MaxContactDetails)

// ContactDetailKinds are the kinds of contact detail, in the order a
// person's list shows them: vCard's EMAIL, TEL, ADR, URL and
// X-SOCIALPROFILE.
var ContactDetailKinds = []string{"email", "phone", "address", "website", "social"}

// kindOrder sorts by kind as ContactDetailKinds lists them.
const kindOrder = `CASE kind WHEN 'email' THEN 1 WHEN 'phone' THEN 2 WHEN 'address' THEN 3 WHEN 'website' THEN 4 ELSE 5 END`

// kindNouns name one detail of each kind in the log.
var kindNouns = map[string]string{
	"email": "an email address", "phone": "a phone number", "address": "an address",
	"website": "a website", "social": "a social profile",
}

// ContactDetail is one way to reach a person. Value is set for every kind
// but address, Network for social only, and the address fields for an
// address only, of which at least one is set; the rest are nil.
type ContactDetail struct {
	ID       int64
	PersonID int64
	Kind     string
	Label    *string
	// Position orders the person's details of one kind; equal positions
	// fall back to the id.
	Position                                  int64
	Value, Network                            *string
	Street, City, PostalCode, Region, Country *string
	CreatedAt                                 int64
	UpdatedAt                                 int64
}

// ContactDetailInput is what creating or replacing a contact detail takes,
// with the fields of its kind only (see ContactDetail).
type ContactDetailInput struct {
	Kind  string
	Label *string
	// Position nil puts a new detail last among its kind; an updated one
	// keeps its place, or goes last among its new kind.
	Position                                  *int64
	Value, Network                            *string
	Street, City, PostalCode, Region, Country *string
}

const contactDetailColumns = `id, person_id, kind, label, position, value, network,
	street, city, postal_code, region, country, created_at, updated_at`

func scanContactDetail(sc scanner, d *ContactDetail) error {
	return sc.Scan(&d.ID, &d.PersonID, &d.Kind, &d.Label, &d.Position, &d.Value, &d.Network,
		&d.Street, &d.City, &d.PostalCode, &d.Region, &d.Country, &d.CreatedAt, &d.UpdatedAt)
}

// lastPosition is the position after the person's last detail of a kind,
// whose person and kind are the statement's next two parameters: 1 for the
// first, and the highest itself when that is the largest integer, past
// which one more would overflow (positions may be equal).
const lastPosition = `(SELECT coalesce(max(d.position), 0) + CASE WHEN max(d.position) = 9223372036854775807 THEN 0 ELSE 1 END
	FROM contact_details d WHERE d.person_id = ? AND d.kind = CAST(? AS TEXT))`

// ContactDetails lists the person's contact details by kind (in the order
// of ContactDetailKinds), position and id; kind "" lists every kind.
func (s *Store) ContactDetails(ctx context.Context, accountID, personID int64, kind string) ([]ContactDetail, error) {
	tx, err := s.r.BeginTx(ctx, &sql.TxOptions{ReadOnly: true}) // the person and the details in one snapshot
	if err != nil {
		return nil, fmt.Errorf("store: list contact details: %w", err)
	}
	defer tx.end(ctx, false)
	if err := checkPerson(ctx, tx, accountID, personID); err != nil {
		return nil, err
	}
	query, args := `SELECT `+contactDetailColumns+` FROM contact_details WHERE person_id = ? AND account_id = ?`, []any{personID, accountID}
	if kind != "" {
		query, args = query+` AND kind = ?`, append(args, kind)
	}
	rows, err := tx.QueryContext(ctx, query+` ORDER BY `+kindOrder+`, position, id`, args...)
	if err != nil {
		return nil, fmt.Errorf("store: list contact details: %w", err)
	}
	defer rows.Close()
	details := []ContactDetail{}
	for rows.Next() {
		var d ContactDetail
		if err := scanContactDetail(rows, &d); err != nil {
			return nil, fmt.Errorf("store: scan contact detail: %w", err)
		}
		details = append(details, d)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("store: list contact details: %w", err)
	}
	return details, nil
}

// ContactDetail returns one contact detail of the person. When there is
// none it says whether the person or the detail is missing.
func (s *Store) ContactDetail(ctx context.Context, accountID, personID, id int64) (ContactDetail, error) {
	var d ContactDetail
	err := scanContactDetail(s.r.QueryRowContext(ctx, `SELECT `+contactDetailColumns+` FROM contact_details
		WHERE id = ? AND person_id = ? AND account_id = ?`, id, personID, accountID), &d)
	if errors.Is(err, sql.ErrNoRows) {
		return ContactDetail{}, missingContactDetail(ctx, s.r, accountID, personID)
	}
	if err != nil {
		return ContactDetail{}, fmt.Errorf("store: get contact detail: %w", err)
	}
	return d, nil
}

// missingContactDetail tells, once a contact detail of the person was not
// found, whether the person or only the detail is missing.
func missingContactDetail(ctx context.Context, q queryer, accountID, personID int64) error {
	if err := checkPerson(ctx, q, accountID, personID); err != nil {
		return err
	}
	return ErrContactDetailNotFound
}

// CreateContactDetail adds a contact detail to the person. One INSERT
// finds the person in the account, works out the position and writes the
// detail, so that the person cannot vanish between a check and the write.
// Two creates at once on PostgreSQL may both read the same last position:
// equal positions are allowed, and the id orders them.
func (s *Store) CreateContactDetail(ctx context.Context, accountID, personID int64, in ContactDetailInput) (ContactDetail, error) {
	var d ContactDetail
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var err error
		d, err = s.createContactDetailTx(ctx, tx, accountID, personID, in)
		return err
	})
	return d, err
}

// createContactDetailTx is CreateContactDetail inside the caller's
// transaction.
func (s *Store) createContactDetailTx(ctx context.Context, tx *txn, accountID, personID int64, in ContactDetailInput) (ContactDetail, error) {
	var d ContactDetail
	now := s.now()
	err := scanContactDetail(tx.QueryRowContext(ctx, `INSERT INTO contact_details (account_id, person_id, kind, label,
			position, value, network, street, city, postal_code, region, country, created_at, updated_at)
		SELECT p.account_id, p.id, CAST(? AS TEXT), CAST(? AS TEXT), coalesce(CAST(? AS BIGINT), `+lastPosition+`),
			CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT), CAST(? AS TEXT),
			CAST(? AS TEXT), CAST(? AS BIGINT), CAST(? AS BIGINT)
		FROM persons p WHERE p.id = ? AND p.account_id = ?
		RETURNING `+contactDetailColumns,
		in.Kind, in.Label, in.Position, personID, in.Kind, in.Value, in.Network,
		in.Street, in.City, in.PostalCode, in.Region, in.Country, now, now, personID, accountID), &d)
	if errors.Is(err, sql.ErrNoRows) {
		return d, ErrPersonNotFound
	}
	if err != nil {
		return d, fmt.Errorf("store: create contact detail: %w", err)
	}
	// Counted after the insert, in its transaction: on PostgreSQL the
	// count sees every detail committed before ours, so that two
	// creates at once cannot both pass the cap.
	var n int64
	if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM contact_details WHERE person_id = ?`, personID).Scan(&n); err != nil {
		return d, fmt.Errorf("store: count contact details: %w", err)
	}
	if n > MaxContactDetails {
		return d, ErrTooManyContactDetails
	}
	if d.Kind == "email" {
		if err := refreshSearch(ctx, tx, personID); err != nil {
			return d, err
		}
	}
	return d, s.logForPerson(ctx, tx, accountID, personID, "contact_detail_creation", "Added "+kindNouns[d.Kind]+" for ")
}

// UpdateContactDetail replaces every field of the person's contact detail,
// its kind too.
func (s *Store) UpdateContactDetail(ctx context.Context, accountID, personID, id int64, in ContactDetailInput) (ContactDetail, error) {
	var d ContactDetail
	err := s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		// Every SET reads the row as it was: kind in the CASE is the old one.
		err := scanContactDetail(tx.QueryRowContext(ctx, `UPDATE contact_details SET kind = ?, label = ?,
				position = coalesce(CAST(? AS BIGINT), CASE WHEN kind = CAST(? AS TEXT) THEN position ELSE `+lastPosition+` END),
				value = ?, network = ?, street = ?, city = ?, postal_code = ?, region = ?, country = ?, updated_at = ?
			WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING `+contactDetailColumns,
			in.Kind, in.Label, in.Position, in.Kind, personID, in.Kind, in.Value, in.Network,
			in.Street, in.City, in.PostalCode, in.Region, in.Country, s.now(), id, personID, accountID), &d)
		if errors.Is(err, sql.ErrNoRows) {
			return missingContactDetail(ctx, tx, accountID, personID)
		}
		if err != nil {
			return fmt.Errorf("store: update contact detail: %w", err)
		}
		// The kind may have been email before.
		if err := refreshSearch(ctx, tx, personID); err != nil {
			return err
		}
		return s.logForPerson(ctx, tx, accountID, personID, "contact_detail_update", "Updated "+kindNouns[d.Kind]+" for ")
	})
	return d, err
}

// DeleteContactDetail deletes one contact detail of the person.
func (s *Store) DeleteContactDetail(ctx context.Context, accountID, personID, id int64) error {
	return s.withTx(ctx, func(ctx context.Context, tx *txn) error {
		var kind string
		err := tx.QueryRowContext(ctx, `DELETE FROM contact_details WHERE id = ? AND person_id = ? AND account_id = ?
			RETURNING kind`, id, personID, accountID).Scan(&kind)
		if errors.Is(err, sql.ErrNoRows) {
			return missingContactDetail(ctx, tx, accountID, personID)
		}
		if err != nil {
			return fmt.Errorf("store: delete contact detail: %w", err)
		}
		if kind == "email" {
			if err := refreshSearch(ctx, tx, personID); err != nil {
				return err
			}
		}
		return s.logForPerson(ctx, tx, accountID, personID, "contact_detail_deletion", "Deleted "+kindNouns[kind]+" for ")
	})
}

// refreshSearch builds the person's search text again, from their names
// and emails (migrations 0021 and 0024): a write of a person's details
// calls it once at its end, however many emails it wrote, so that adding
// n emails costs n and not n².
func refreshSearch(ctx context.Context, tx *txn, personID int64) error {
	if _, err := tx.ExecContext(ctx, refreshSearchSQL, personID); err != nil {
		return fmt.Errorf("store: refresh search text: %w", err)
	}
	return nil
}

// refreshSearchSQL asks for a person's search text again: the triggers
// build it where it is NULL.
const refreshSearchSQL = `UPDATE persons SET search_text = NULL WHERE id = ?`

// countriesTxt is ISO 3166-1's alpha-2 codes, one a line with its name.
//
//go:embed countries.txt
var countriesTxt string

// countryTables gives every ISO 3166-1 alpha-2 code, and the code of
// each English short name, in lower case, with the names that address
// books write for the few whose ISO name is seldom used. They are built
// at first use: a start that reads no country does not pay for them.
var countryTables = sync.OnceValues(func() (map[string]bool, map[string]string) {
	m, names := map[string]bool{}, map[string]string{
		"usa": "US", "united states of america": "US", "u.s.a.": "US", "uk": "GB", "great britain": "GB",
		"england": "GB", "scotland": "GB", "wales": "GB", "russia": "RU", "south korea": "KR", "north korea": "KP",
		"iran": "IR", "syria": "SY", "vietnam": "VN", "bolivia": "BO", "venezuela": "VE", "tanzania": "TZ",
		"taiwan": "TW", "czech republic": "CZ", "the netherlands": "NL", "holland": "NL", "deutschland": "DE",
		"españa": "ES", "italia": "IT", "schweiz": "CH", "suisse": "CH", "österreich": "AT", "moldova": "MD",
		"laos": "LA", "brasil": "BR", "méxico": "MX", "türkiye": "TR", "turkey": "TR",
	}
	sc := bufio.NewScanner(strings.NewReader(countriesTxt))
	for sc.Scan() {
		if line := sc.Text(); line != "" && !strings.HasPrefix(line, "#") {
			code, name, _ := strings.Cut(line, "\t")
			m[code] = true
			names[strings.ToLower(name)] = code
		}
	}
	return m, names
})

// CountryByName returns the ISO 3166-1 alpha-2 code of a country written
// out ("Germany", "United States", "USA") or as a code, in any case, and
// false when it knows no such country.
func CountryByName(s string) (string, bool) {
	if code, ok := CountryCode(s); ok {
		return code, true
	}
	_, countryNames := countryTables()
	code, ok := countryNames[strings.ToLower(strings.TrimSpace(s))]
	return code, ok
}

// WebURL reports whether s is an http or https URL with a host, and
// without white space, which url.Parse lets by in a path: a website, as
// the API and the vCard import take one.
func WebURL(s string) bool {
	scheme, _, _ := strings.Cut(s, ":")
	u, err := url.Parse(s)
	return (strings.EqualFold(scheme, "http") || strings.EqualFold(scheme, "https")) &&
		err == nil && u.Hostname() != "" && strings.HasPrefix(s[len(u.Scheme):], "://") &&
		!strings.ContainsFunc(s, unicode.IsSpace)
}

// CountryCode returns s in upper case if it is an ISO 3166-1 alpha-2 code
// in either case ("fr", "FR"), and false otherwise ("XX", "usa"). Only
// ASCII letters count: strings.ToUpper would make "ıt" "IT".
func CountryCode(s string) (string, bool) {
	if len(s) != 2 || !asciiLetter(s[0]) || !asciiLetter(s[1]) {
		return "", false
	}
	code := strings.ToUpper(s)
	if countries, _ := countryTables(); !countries[code] {
		return "", false
	}
	return code, true
}

func asciiLetter(b byte) bool { return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' }
