package store_test

import (
	"bufio"
	"errors"
	"math"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"kith/store"
)

func TestContactDetails(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	ctx := t.Context()
	create := func(personID int64, in store.ContactDetailInput) store.ContactDetail {
		t.Helper()
		d, err := s.CreateContactDetail(ctx, me.AccountID, personID, in)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}

	work := create(jim.ID, store.ContactDetailInput{Kind: "email", Label: ptr("work"), Value: ptr("jim@dundermifflin.com")})
	want := store.ContactDetail{ID: work.ID, PersonID: jim.ID, Kind: "email", Label: ptr("work"), Position: 1,
		Value: ptr("jim@dundermifflin.com"), CreatedAt: nowUnix(s), UpdatedAt: nowUnix(s)}
	if work.ID <= 0 || !reflect.DeepEqual(work, want) {
		t.Fatalf("created %+v\nwant %+v", work, want)
	}
	if got, err := s.ContactDetail(ctx, me.AccountID, jim.ID, work.ID); err != nil || !reflect.DeepEqual(got, work) {
		t.Errorf("read back %+v, %v", got, err)
	}
	home := create(jim.ID, store.ContactDetailInput{Kind: "address", Label: ptr("home"), Street: ptr("1725 Slough Avenue\nSuite 200"),
		City: ptr("Scranton"), PostalCode: ptr("18505"), Region: ptr("PA"), Country: ptr("US")})
	if home.Position != 1 || home.Value != nil || *home.Street != "1725 Slough Avenue\nSuite 200" || *home.Country != "US" {
		t.Errorf("address %+v: the first of its kind is at 1", home)
	}
	mastodon := create(jim.ID, store.ContactDetailInput{Kind: "social", Network: ptr("mastodon"), Value: ptr("@jim@example.social")})
	site := create(jim.ID, store.ContactDetailInput{Kind: "website", Value: ptr("https://example.com")})
	private := create(jim.ID, store.ContactDetailInput{Kind: "email", Value: ptr("jim@example.com")})
	first := create(jim.ID, store.ContactDetailInput{Kind: "email", Value: ptr("first@example.com"), Position: ptr(int64(0))})
	phone := create(jim.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("+1 570-555-0100")})
	create(pam.ID, store.ContactDetailInput{Kind: "email", Value: ptr("pam@example.com")})
	if private.Position != 2 || first.Position != 0 || phone.Position != 1 || mastodon.Position != 1 || site.Position != 1 {
		t.Errorf("positions: private %d (want 2), first %d (0), phone %d, mastodon %d, site %d (1)",
			private.Position, first.Position, phone.Position, mastodon.Position, site.Position)
	}

	ids := func(ds []store.ContactDetail) []int64 {
		out := make([]int64, len(ds))
		for i, d := range ds {
			out[i] = d.ID
		}
		return out
	}
	t.Run("lists by kind (email, phone, address, website, social), position and id", func(t *testing.T) {
		list, err := s.ContactDetails(ctx, me.AccountID, jim.ID, "")
		wantIDs := []int64{first.ID, work.ID, private.ID, phone.ID, home.ID, site.ID, mastodon.ID}
		if err != nil || !reflect.DeepEqual(ids(list), wantIDs) {
			t.Errorf("list %v, %v; want %v", ids(list), err, wantIDs)
		}
	})
	t.Run("lists one kind", func(t *testing.T) {
		list, err := s.ContactDetails(ctx, me.AccountID, jim.ID, "email")
		if err != nil || !reflect.DeepEqual(ids(list), []int64{first.ID, work.ID, private.ID}) {
			t.Errorf("emails %v, %v", ids(list), err)
		}
		list, err = s.ContactDetails(ctx, me.AccountID, pam.ID, "phone")
		if err != nil || list == nil || len(list) != 0 {
			t.Errorf("Pam's phones %+v, %v", list, err)
		}
	})
	t.Run("a new detail after the largest position stays at it", func(t *testing.T) {
		top := create(pam.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("1"), Position: ptr(int64(math.MaxInt64))})
		next := create(pam.ID, store.ContactDetailInput{Kind: "phone", Value: ptr("2")})
		if top.Position != math.MaxInt64 || next.Position != math.MaxInt64 {
			t.Errorf("positions %d and %d, want both the largest", top.Position, next.Position)
		}
		list, _ := s.ContactDetails(ctx, me.AccountID, pam.ID, "phone")
		if !reflect.DeepEqual(ids(list), []int64{top.ID, next.ID}) {
			t.Errorf("equal positions by id: %v", ids(list))
		}
	})
	t.Run("update replaces every field and keeps the position unless given", func(t *testing.T) {
		advance(s, time.Hour)
		got, err := s.UpdateContactDetail(ctx, me.AccountID, jim.ID, private.ID, store.ContactDetailInput{Kind: "email", Value: ptr("jim@example.org")})
		want := store.ContactDetail{ID: private.ID, PersonID: jim.ID, Kind: "email", Position: 2, Value: ptr("jim@example.org"),
			CreatedAt: private.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
		got, err = s.UpdateContactDetail(ctx, me.AccountID, jim.ID, private.ID, store.ContactDetailInput{Kind: "email", Value: ptr("jim@example.org"), Position: ptr(int64(-3))})
		if err != nil || got.Position != -3 {
			t.Errorf("moved to %d, %v", got.Position, err)
		}
	})
	t.Run("a change of kind clears the old kind's fields and goes last among the new kind", func(t *testing.T) {
		got, err := s.UpdateContactDetail(ctx, me.AccountID, jim.ID, home.ID, store.ContactDetailInput{Kind: "phone", Label: ptr("home"), Value: ptr("570-555-0199")})
		want := store.ContactDetail{ID: home.ID, PersonID: jim.ID, Kind: "phone", Label: ptr("home"), Position: phone.Position + 1,
			Value: ptr("570-555-0199"), CreatedAt: home.CreatedAt, UpdatedAt: nowUnix(s)}
		if err != nil || !reflect.DeepEqual(got, want) {
			t.Errorf("updated %+v, %v\nwant %+v", got, err, want)
		}
		got, err = s.UpdateContactDetail(ctx, me.AccountID, jim.ID, home.ID, store.ContactDetailInput{Kind: "address", City: ptr("Scranton"), Position: ptr(int64(7))})
		if err != nil || got.Position != 7 || got.Value != nil || *got.City != "Scranton" {
			t.Errorf("back to an address: %+v, %v", got, err)
		}
	})
	t.Run("the schema refuses a row the API could not write", func(t *testing.T) {
		for name, in := range map[string]store.ContactDetailInput{
			"an unknown kind":                {Kind: "fax", Value: ptr("1")},
			"an email without a value":       {Kind: "email"},
			"a social profile without a net": {Kind: "social", Value: ptr("@jim")},
			"a network on a phone":           {Kind: "phone", Value: ptr("1"), Network: ptr("x")},
			"a city on a website":            {Kind: "website", Value: ptr("https://example.com"), City: ptr("Scranton")},
			"an empty address":               {Kind: "address"},
			"an address with a value":        {Kind: "address", City: ptr("Scranton"), Value: ptr("x")},
			"a lower-case country":           {Kind: "address", Country: ptr("us")},
			"a three-letter country":         {Kind: "address", Country: ptr("USA")},
		} {
			if d, err := s.CreateContactDetail(ctx, me.AccountID, jim.ID, in); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s: %+v, %v; want a constraint's error", name, d, err)
			}
			if d, err := s.UpdateContactDetail(ctx, me.AccountID, jim.ID, work.ID, in); err == nil || errors.Is(err, store.ErrNotFound) {
				t.Errorf("%s on update: %+v, %v; want a constraint's error", name, d, err)
			}
		}
		if got, err := s.ContactDetail(ctx, me.AccountID, jim.ID, work.ID); err != nil || !reflect.DeepEqual(got, work) {
			t.Errorf("after the refusals: %+v, %v", got, err)
		}
	})
	t.Run("delete", func(t *testing.T) {
		wantErr(t, s.DeleteContactDetail(ctx, me.AccountID, jim.ID, site.ID), nil)
		_, err := s.ContactDetail(ctx, me.AccountID, jim.ID, site.ID)
		wantErr(t, err, store.ErrContactDetailNotFound)
		wantErr(t, s.DeleteContactDetail(ctx, me.AccountID, jim.ID, site.ID), store.ErrContactDetailNotFound)
	})
	t.Run("deleting the person deletes its details", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, jim.ID), nil)
		_, err := s.ContactDetail(ctx, me.AccountID, jim.ID, work.ID)
		wantErr(t, err, store.ErrPersonNotFound)
		if list, err := s.ContactDetails(ctx, me.AccountID, pam.ID, ""); err != nil || len(list) != 3 {
			t.Errorf("Pam's details: %+v, %v", list, err)
		}
	})
}

func TestCountryCode(t *testing.T) {
	for in, want := range map[string]string{"FR": "FR", "fr": "FR", "gB": "GB", "us": "US", "AX": "AX", "ss": "SS"} {
		if got, ok := store.CountryCode(in); !ok || got != want {
			t.Errorf("CountryCode(%q) = %q, %t; want %q", in, got, ok, want)
		}
	}
	// UK and EU are reserved, not assigned; XK (Kosovo) and XX are user-assigned.
	for _, in := range []string{"", "X", "XX", "usa", "USA", "UK", "EU", "XK", "1A", "ıt", "F", "F R", "fr "} {
		if got, ok := store.CountryCode(in); ok || got != "" {
			t.Errorf("CountryCode(%q) = %q, %t; want refused", in, got, ok)
		}
	}
	n := 0
	for a := 'A'; a <= 'Z'; a++ {
		for b := 'A'; b <= 'Z'; b++ {
			if _, ok := store.CountryCode(string([]rune{a, b})); ok {
				n++
			}
		}
	}
	if n != 249 {
		t.Errorf("%d codes, want ISO 3166-1's 249", n)
	}
}

// TestCountryCodesMatchTheTZDatabase compares the embedded list with the
// tz database's iso3166.tab, when the system has one: a second source
// for the same 249 codes.
func TestCountryCodesMatchTheTZDatabase(t *testing.T) {
	f, err := os.Open("/usr/share/zoneinfo/iso3166.tab")
	if err != nil {
		t.Skipf("no tz table to compare with: %v", err)
	}
	defer f.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		code, _, _ := strings.Cut(line, "\t")
		if _, ok := store.CountryCode(code); !ok {
			t.Errorf("iso3166.tab has %s, countries.txt does not", code)
		}
		n++
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	if n != 249 {
		t.Errorf("iso3166.tab has %d codes, countries.txt 249: regenerate it (see its header)", n)
	}
}
