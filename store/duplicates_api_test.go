package store_test

import (
	"fmt"
	"slices"
	"testing"

	"kith/store"
)

// importPersons writes persons into the account in one import, the way
// rows reach the store without the API's checks (a vCard, an export).
func importPersons(t testing.TB, s *store.Store, u store.User, persons []store.PersonRecord) {
	t.Helper()
	_, err := s.ImportAccount(t.Context(), u.AccountID, u.ID, store.AccountImport{Persons: func(add func(*store.PersonRecord) error) error {
		for i := range persons {
			if err := add(&persons[i]); err != nil {
				return err
			}
		}
		return nil
	}})
	if err != nil {
		t.Fatal(err)
	}
}

// dupPerson is a person to import with contact details of kind:value.
func dupPerson(first, last string, details ...string) store.PersonRecord {
	p := store.PersonRecord{Person: store.Person{FirstName: first, MaritalStatus: "unknown", KidsStatus: "unknown"}}
	if last != "" {
		p.LastName = &last
	}
	for i := 0; i < len(details); i += 2 {
		v := details[i+1]
		p.ContactDetails = append(p.ContactDetails, store.ContactDetail{Kind: details[i], Value: &v, Position: int64(i/2 + 1)})
	}
	return p
}

// pairsOf is every pair of the account's Duplicates as "reason first second".
func pairsOf(t *testing.T, s *store.Store, accountID int64) []string {
	t.Helper()
	ds, total, err := s.Duplicates(t.Context(), accountID, 100, 0)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, d := range ds {
		out = append(out, fmt.Sprintf("%s %s %s", d.Reason, d.First.Name, d.Second.Name))
	}
	if int(total) != len(out) {
		t.Errorf("total %d for %d pairs", total, len(out))
	}
	return out
}

// TestDuplicatesOfImportedText: what the API's checks would refuse but an
// import writes (white space inside an email, a phone without any digit,
// tabs in a name) is normalized as the contract says.
func TestDuplicatesOfImportedText(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	importPersons(t, s, u, []store.PersonRecord{
		dupPerson("Ann", "Tab", "email", "d. schrute @ example.com"),
		dupPerson("Bea", "Nbsp", "email", "D.Schrute@Example.COM\t"),
		dupPerson("Cy", "", "phone", "n/a"),
		dupPerson("Di", "", "phone", "n/a"),
		dupPerson("Pam\t Marie", "\u00a0Beesly "),
		dupPerson("PAM MARIE", "BEESLY"),
		// Two groups each (email and phone) and a shared name: one pair.
		dupPerson("Eve", "Twin", "email", "eve@example.com", "phone", "1-2-3", "email", "EVE@example.com"),
		dupPerson("eve", "twin", "phone", "123", "email", "eve@EXAMPLE.com"),
	})
	want := []string{
		"email Ann Tab Bea Nbsp",
		"name Pam\t Marie \u00a0Beesly  PAM MARIE BEESLY",
		"name Eve Twin eve twin",
	}
	if got := pairsOf(t, s, u.AccountID); !slices.Equal(got, want) {
		t.Errorf("pairs\n %q\nwant\n %q", got, want)
	}
}

// TestDuplicatesGoWithThePerson: a deleted person is in no pair.
func TestDuplicatesGoWithThePerson(t *testing.T) {
	s := newStore(t)
	u := newUser(t, s)
	a := newPerson(t, s, u.AccountID, "Jim")
	newPerson(t, s, u.AccountID, "jim")
	newPerson(t, s, u.AccountID, "JIM")
	if got := pairsOf(t, s, u.AccountID); len(got) != 3 {
		t.Fatalf("three of one name: %q", got)
	}
	if err := s.DeletePerson(t.Context(), u.AccountID, a.ID); err != nil {
		t.Fatal(err)
	}
	if got := pairsOf(t, s, u.AccountID); !slices.Equal(got, []string{"name jim JIM"}) {
		t.Errorf("after the delete: %q", got)
	}
}

// BenchmarkDuplicates lists the first and the last page of an account's
// duplicates at several sizes: the time grows with the persons (and their
// pairs), not with their square. A tenth of the persons share a name with
// another, a tenth an email and a tenth a phone number; each has an email
// and a phone.
func BenchmarkDuplicates(b *testing.B) {
	for _, n := range []int{1000, 4000, 16000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, _ := newStoreAt(b)
			u := benchUser(b, s, 1)
			persons := make([]store.PersonRecord, n)
			for i := range persons {
				name, email, phone := i, i, i
				switch i % 10 {
				case 1:
					name = i - 1
				case 2:
					email = i - 2
				case 3:
					phone = i - 3
				}
				persons[i] = dupPerson(fmt.Sprint("Person", name), "Bench",
					"email", fmt.Sprintf("p%d@example.com", email), "phone", fmt.Sprintf("+1 555 %07d", phone))
			}
			importPersons(b, s, u, persons)
			want := int64(n / 10 * 3)
			for b.Loop() {
				_, total, err := s.Duplicates(b.Context(), u.AccountID, 15, 0)
				if err != nil || total != want {
					b.Fatalf("%d pairs, %v; want %d", total, err, want)
				}
				if ds, _, _ := s.Duplicates(b.Context(), u.AccountID, 15, want-1); len(ds) != 1 {
					b.Fatalf("the last page has %d pairs", len(ds))
				}
			}
		})
	}
}
