package store_test

import (
	"database/sql"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

// tagNames is the account's tags as "name:count", in the list's order.
func tagNames(t *testing.T, s *store.Store, accountID int64) string {
	t.Helper()
	tags, err := s.Tags(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, tg := range tags {
		out = append(out, fmt.Sprint(tg.Name, ":", tg.PersonsCount))
	}
	return strings.Join(out, " ")
}

func tagsOf(t *testing.T, s *store.Store, accountID, personID int64) []string {
	t.Helper()
	p, err := s.Person(t.Context(), accountID, personID)
	if err != nil {
		t.Fatal(err)
	}
	return p.Tags
}

func tagID(t *testing.T, s *store.Store, accountID int64, name string) int64 {
	t.Helper()
	tags, err := s.Tags(t.Context(), accountID)
	if err != nil {
		t.Fatal(err)
	}
	for _, tg := range tags {
		if tg.Name == name {
			return tg.ID
		}
	}
	t.Fatalf("no tag %q", name)
	return 0
}

func TestSetPersonTags(t *testing.T) {
	s, where := newStoreAt(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")

	t.Run("names trimmed, empty ones skipped, equal ignoring case once, sorted ignoring case", func(t *testing.T) {
		advance(s, 60e9)
		p, err := s.SetPersonTags(ctx, me.AccountID, jim.ID, []string{" work ", "", "Book club", "WORK", "étude", "Étude", "abc"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"abc", "Book club", "work", "étude"}; !reflect.DeepEqual(p.Tags, want) {
			t.Errorf("tags %q, want %q", p.Tags, want)
		}
		if p.UpdatedAt != nowUnix(s) {
			t.Errorf("updated_at %d, want now", p.UpdatedAt)
		}
		if got := tagNames(t, s, me.AccountID); got != "abc:1 Book club:1 work:1 étude:1" {
			t.Errorf("the account's tags: %s", got)
		}
		if !reflect.DeepEqual(tagsOf(t, s, me.AccountID, jim.ID), p.Tags) {
			t.Errorf("read back: %q", tagsOf(t, s, me.AccountID, jim.ID))
		}
	})
	t.Run("a name the account has is that tag, with its spelling", func(t *testing.T) {
		p, err := s.SetPersonTags(ctx, me.AccountID, pam.ID, []string{"WORK", "ÉTUDE", "Chess"})
		if err != nil {
			t.Fatal(err)
		}
		if want := []string{"Chess", "work", "étude"}; !reflect.DeepEqual(p.Tags, want) {
			t.Errorf("tags %q, want %q", p.Tags, want)
		}
		if got := tagNames(t, s, me.AccountID); got != "abc:1 Book club:1 Chess:1 work:2 étude:2" {
			t.Errorf("the account's tags: %s", got)
		}
	})
	t.Run("another account has tags of its own", func(t *testing.T) {
		p, err := s.SetPersonTags(ctx, them.AccountID, theirs.ID, []string{"work"})
		if err != nil || !reflect.DeepEqual(p.Tags, []string{"work"}) {
			t.Fatalf("%q %v", p.Tags, err)
		}
		if got := tagNames(t, s, them.AccountID); got != "work:1" {
			t.Errorf("theirs: %s", got)
		}
		if got := tagNames(t, s, me.AccountID); got != "abc:1 Book club:1 Chess:1 work:2 étude:2" {
			t.Errorf("mine: %s", got)
		}
	})
	t.Run("the list replaces: the empty one takes every tag off, the tags stay", func(t *testing.T) {
		p, err := s.SetPersonTags(ctx, me.AccountID, jim.ID, []string{"chess", "work"})
		if err != nil || !reflect.DeepEqual(p.Tags, []string{"Chess", "work"}) {
			t.Fatalf("%q %v", p.Tags, err)
		}
		p, err = s.SetPersonTags(ctx, me.AccountID, jim.ID, nil)
		if err != nil || !reflect.DeepEqual(p.Tags, []string{}) {
			t.Fatalf("%q %v", p.Tags, err)
		}
		if got := tagNames(t, s, me.AccountID); got != "abc:0 Book club:0 Chess:1 work:1 étude:1" {
			t.Errorf("the account's tags: %s", got)
		}
	})
	t.Run("another account's person, or none, is not found and changes nothing", func(t *testing.T) {
		before := storetest.Count(t, where, `SELECT count(*) FROM person_tags`) + storetest.Count(t, where, `SELECT count(*) FROM tags`)
		_, err := s.SetPersonTags(ctx, me.AccountID, theirs.ID, []string{"new"})
		wantErr(t, err, store.ErrPersonNotFound)
		_, err = s.SetPersonTags(ctx, me.AccountID, 99999, []string{"new"})
		wantErr(t, err, store.ErrPersonNotFound)
		after := storetest.Count(t, where, `SELECT count(*) FROM person_tags`) + storetest.Count(t, where, `SELECT count(*) FROM tags`)
		if after != before {
			t.Errorf("rows before %d, after %d", before, after)
		}
	})
	t.Run("logged", func(t *testing.T) {
		logs, _, err := s.Logs(t.Context(), me.ID, 1, 0)
		if err != nil || len(logs) != 1 || logs[0].Action != "tags_update" || logs[0].Description != "Updated the tags of Jim" {
			t.Errorf("%+v %v", logs, err)
		}
	})
	t.Run("deleting the person takes its tags off; the tags stay", func(t *testing.T) {
		wantErr(t, s.DeletePerson(ctx, me.AccountID, pam.ID), nil)
		if got := tagNames(t, s, me.AccountID); got != "abc:0 Book club:0 Chess:0 work:0 étude:0" {
			t.Errorf("the account's tags: %s", got)
		}
	})
	t.Run("the database holds one tag per name ignoring case", func(t *testing.T) {
		db := rawDB(t, where)
		q := `INSERT INTO tags (account_id, name, name_key, created_at, updated_at) VALUES (?, 'Work', 'work', 0, 0)`
		if store.IsPostgres(where) {
			q = strings.Replace(q, "?", "$1", 1)
		}
		if _, err := db.Exec(q, me.AccountID); err == nil {
			t.Errorf("a second tag of key work was written")
		}
	})
}

// rawDB opens the database at where beside the store, for writes the store
// would not make.
func rawDB(t *testing.T, where string) *sql.DB {
	t.Helper()
	driver, dsn := "sqlite", "file:"+where+"?_pragma=busy_timeout(10000)"
	if store.IsPostgres(where) {
		driver, dsn = "pgx", where
	}
	db, err := sql.Open(driver, dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func TestRenameAndDeleteTag(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := store.WithActor(t.Context(), me.ID)
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	theirs := newPerson(t, s, them.AccountID, "Theirs")
	set := func(accountID, personID int64, names ...string) {
		t.Helper()
		if _, err := s.SetPersonTags(ctx, accountID, personID, names); err != nil {
			t.Fatal(err)
		}
	}
	set(me.AccountID, jim.ID, "chess", "Golf")
	set(me.AccountID, pam.ID, "golf", "Work")
	set(them.AccountID, theirs.ID, "Chess")
	chess, golf, work := tagID(t, s, me.AccountID, "chess"), tagID(t, s, me.AccountID, "Golf"), tagID(t, s, me.AccountID, "Work")
	theirChess := tagID(t, s, them.AccountID, "Chess")

	t.Run("a rename to its own name in another case renames", func(t *testing.T) {
		advance(s, 60e9)
		tg, err := s.RenameTag(ctx, me.AccountID, chess, "Chess")
		if err != nil || tg.ID != chess || tg.Name != "Chess" || tg.PersonsCount != 1 || tg.UpdatedAt != nowUnix(s) || tg.CreatedAt == tg.UpdatedAt {
			t.Fatalf("%+v %v", tg, err)
		}
		if got := tagsOf(t, s, me.AccountID, jim.ID); !reflect.DeepEqual(got, []string{"Chess", "Golf"}) {
			t.Errorf("Jim's tags %q", got)
		}
	})
	t.Run("a rename onto another tag's name merges into that one", func(t *testing.T) {
		tg, err := s.RenameTag(ctx, me.AccountID, golf, "WORK")
		if err != nil || tg.ID != work || tg.Name != "Work" || tg.PersonsCount != 2 {
			t.Fatalf("%+v %v", tg, err)
		}
		if got := tagsOf(t, s, me.AccountID, jim.ID); !reflect.DeepEqual(got, []string{"Chess", "Work"}) {
			t.Errorf("Jim's tags %q", got)
		}
		if got := tagsOf(t, s, me.AccountID, pam.ID); !reflect.DeepEqual(got, []string{"Work"}) {
			t.Errorf("Pam's tags %q (once)", got)
		}
		_, err = s.Tag(t.Context(), me.AccountID, golf)
		wantErr(t, err, store.ErrTagNotFound)
		logs, _, _ := s.Logs(t.Context(), me.ID, 1, 0)
		if len(logs) != 1 || logs[0].Action != "tag_update" || logs[0].Description != "Updated the tag called Work" {
			t.Errorf("log %+v", logs)
		}
	})
	t.Run("another account's tag is not found", func(t *testing.T) {
		_, err := s.RenameTag(ctx, me.AccountID, theirChess, "Mine")
		wantErr(t, err, store.ErrTagNotFound)
		wantErr(t, s.DeleteTag(ctx, me.AccountID, theirChess), store.ErrTagNotFound)
		_, err = s.Tag(t.Context(), me.AccountID, theirChess)
		wantErr(t, err, store.ErrTagNotFound)
		if got := tagNames(t, s, them.AccountID); got != "Chess:1" {
			t.Errorf("theirs: %s", got)
		}
	})
	t.Run("a deletion takes the tag off every person", func(t *testing.T) {
		wantErr(t, s.DeleteTag(ctx, me.AccountID, work), nil)
		if got := tagsOf(t, s, me.AccountID, pam.ID); !reflect.DeepEqual(got, []string{}) {
			t.Errorf("Pam's tags %q", got)
		}
		if got := tagNames(t, s, me.AccountID); got != "Chess:1" {
			t.Errorf("the account's tags: %s", got)
		}
		logs, _, _ := s.Logs(t.Context(), me.ID, 1, 0)
		if len(logs) != 1 || logs[0].Action != "tag_deletion" || logs[0].Description != "Deleted the tag called Work" {
			t.Errorf("log %+v", logs)
		}
		wantErr(t, s.DeleteTag(ctx, me.AccountID, work), store.ErrTagNotFound)
	})
}

func TestTaggedPersons(t *testing.T) {
	s := newStore(t)
	me, them := twoAccounts(t, s)
	ctx := t.Context()
	var ids []int64
	for _, name := range []string{"Jim", "Pam", "Dwight", "Jan"} {
		p := newPerson(t, s, me.AccountID, name)
		ids = append(ids, p.ID)
		if name != "Dwight" {
			if _, err := s.SetPersonTags(ctx, me.AccountID, p.ID, []string{"Étude"}); err != nil {
				t.Fatal(err)
			}
		}
	}
	theirs := newPerson(t, s, them.AccountID, "Jim")
	if _, err := s.SetPersonTags(ctx, them.AccountID, theirs.ID, []string{"étude"}); err != nil {
		t.Fatal(err)
	}
	names := func(ps []store.Person) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.FirstName+"("+strings.Join(p.Tags, ",")+")")
		}
		return strings.Join(out, " ")
	}
	for _, c := range []struct {
		tag           string
		q             *string
		limit, offset int64
		want          string
		total         int64
	}{
		{"étude", nil, 10, 0, "Jim(Étude) Pam(Étude) Jan(Étude)", 3},
		{"ÉTUDE", nil, 2, 2, "Jan(Étude)", 3},
		{"étude", nil, 2, 10, "", 3}, // past the last page: still the total
		{"étude", ptr("ja"), 10, 0, "Jan(Étude)", 1},
		{"none", nil, 10, 0, "", 0},
	} {
		ps, total, err := s.TaggedPersons(ctx, me.AccountID, c.tag, c.q, c.limit, c.offset)
		if err != nil || names(ps) != c.want || total != c.total {
			t.Errorf("tag %q q %v: %s (%d) %v, want %s (%d)", c.tag, deref(c.q), names(ps), total, err, c.want, c.total)
		}
	}
}

// TestTagsChangeCards: a person's tags are its card's: taking one on or
// off, renaming, merging or deleting one moves the card on; a rename to the
// same name does not.
func TestTagsChangeCards(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	jim := newPerson(t, s, me.AccountID, "Jim")
	pam := newPerson(t, s, me.AccountID, "Pam")
	changed := func(step func()) []string {
		t.Helper()
		seq, err := s.CardSeq(ctx, me.AccountID)
		if err != nil {
			t.Fatal(err)
		}
		step()
		_, refs, _, err := s.CardChanges(ctx, me.AccountID, seq)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, r := range refs {
			c, err := s.CardByUID(ctx, me.AccountID, r.UID)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, c.FirstName)
		}
		return out
	}
	set := func(id int64, names ...string) func() {
		return func() {
			if _, err := s.SetPersonTags(ctx, me.AccountID, id, names); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := changed(set(jim.ID, "chess")); !reflect.DeepEqual(got, []string{"Jim"}) {
		t.Errorf("tags set: %v", got)
	}
	set(pam.ID, "golf")()
	chess, golf := tagID(t, s, me.AccountID, "chess"), tagID(t, s, me.AccountID, "golf")
	rename := func(id int64, name string) func() {
		return func() {
			if _, err := s.RenameTag(ctx, me.AccountID, id, name); err != nil {
				t.Fatal(err)
			}
		}
	}
	if got := changed(rename(chess, "Chess")); !reflect.DeepEqual(got, []string{"Jim"}) {
		t.Errorf("renamed: %v", got)
	}
	if got := changed(rename(chess, "Chess")); len(got) != 0 {
		t.Errorf("renamed to its name: %v", got)
	}
	if got := changed(rename(golf, "CHESS")); !reflect.DeepEqual(got, []string{"Pam"}) {
		t.Errorf("merged: %v", got)
	}
	c, err := s.Card(ctx, me.AccountID, pam.ID)
	if err != nil || !reflect.DeepEqual(c.Tags, []string{"Chess"}) {
		t.Errorf("Pam's card's tags %q %v", c.Tags, err)
	}
	got := changed(func() { wantErr(t, s.DeleteTag(ctx, me.AccountID, chess), nil) })
	if strings.Join(got, " ") != "Jim Pam" && strings.Join(got, " ") != "Pam Jim" {
		t.Errorf("deleted: %v", got)
	}
}

// TestCardTags: a card's tags replace the person's, by the rules of
// SetPersonTags; a card without leaves them.
func TestCardTags(t *testing.T) {
	s := newStore(t)
	me := newUser(t, s)
	ctx := t.Context()
	if _, err := s.SetPersonTags(ctx, me.AccountID, newPerson(t, s, me.AccountID, "Jim").ID, []string{"Work"}); err != nil {
		t.Fatal(err)
	}
	put := func(tags []string) []string {
		t.Helper()
		c, _, err := s.PutCard(ctx, me.AccountID, store.CardInput{UID: "u1", FirstName: "Pam", Tags: tags}, nil)
		if err != nil {
			t.Fatal(err)
		}
		return c.Tags
	}
	if got := put([]string{"work", "Chess", " ", "CHESS"}); !reflect.DeepEqual(got, []string{"Chess", "Work"}) {
		t.Errorf("first put: %q", got)
	}
	if got := put(nil); !reflect.DeepEqual(got, []string{"Chess", "Work"}) {
		t.Errorf("a card without tags: %q", got)
	}
	if got := put([]string{}); !reflect.DeepEqual(got, []string{}) {
		t.Errorf("a card with an empty CATEGORIES: %q", got)
	}
	n, err := s.PutCards(ctx, me.AccountID, []store.CardInput{
		{UID: "u2", FirstName: "A", Tags: []string{"Golf", "work"}}, {UID: "u3", FirstName: "B", Tags: []string{"GOLF"}}})
	if err != nil || n != 2 {
		t.Fatalf("%d %v", n, err)
	}
	if got := tagNames(t, s, me.AccountID); got != "Chess:0 Golf:2 Work:2" {
		t.Errorf("after an import: %s", got)
	}
}
