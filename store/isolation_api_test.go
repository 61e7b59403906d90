package store_test

import (
	"errors"
	"reflect"
	"testing"

	"kith/store"
)

// TestPersonRecordsAreIsolated asks for every kind of a person's records
// where it is not: under a missing person, another account's person or
// another person of the account, by another account, or by an id that
// is another account's or no one's. Each call is refused as not found,
// the person first, and leaves every record as it was.
func TestPersonRecordsAreIsolated(t *testing.T) {
	s := newStore(t)
	f := isolationFixture(t, s)
	me, them := f.me.AccountID, f.them.AccountID
	for _, k := range f.kinds {
		t.Run(k.name, func(t *testing.T) {
			records := f.records[k.name]
			mine, theirs := records[0].id, records[2].id
			missing := max(records[0].id, records[1].id, records[2].id) + 100
			for _, c := range []struct {
				name            string
				account, person int64
				id              int64
				want            error
			}{
				{"a missing person", me, f.theirs.ID + 100, mine, store.ErrPersonNotFound},
				{"another account's person", me, f.theirs.ID, mine, store.ErrPersonNotFound},
				{"another account's record under its person", me, f.theirs.ID, theirs, store.ErrPersonNotFound},
				{"another account asking for mine", them, f.jim.ID, mine, store.ErrPersonNotFound},
				{"a record of another person", me, f.pam.ID, mine, k.notFound},
				{"another account's record under my person", me, f.jim.ID, theirs, k.notFound},
				{"a missing record", me, f.jim.ID, missing, k.notFound},
			} {
				t.Run(c.name+" is not found", func(t *testing.T) {
					ctx := t.Context()
					check := func(call string, err error) {
						t.Helper()
						if !errors.Is(err, c.want) || !errors.Is(err, store.ErrNotFound) {
							t.Errorf("%s: error %v, want %v", call, err, c.want)
						}
					}
					_, err := k.get(ctx, c.account, c.person, c.id)
					check("get", err)
					check("update", k.update(ctx, c.account, c.person, c.id))
					check("delete", k.delete(ctx, c.account, c.person, c.id))
					if c.want == store.ErrPersonNotFound {
						_, err := k.list(ctx, c.account, c.person)
						check("list", err)
						_, err = k.create(ctx, c.account, c.person)
						check("create", err)
						for name, more := range k.more {
							check(name, more(ctx, c.account, c.person))
						}
					}
					for _, r := range records {
						if got, err := k.get(ctx, r.account, r.person, r.id); err != nil || !reflect.DeepEqual(got, r.saved) {
							t.Errorf("%s's record is now %+v, %v; want %+v", r.who, got, err, r.saved)
						}
						if n, err := k.list(ctx, r.account, r.person); err != nil || n != 1 {
							t.Errorf("%s has %d records, %v; want 1", r.who, n, err)
						}
					}
				})
			}
		})
	}
}
