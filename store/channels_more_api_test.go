package store_test

import (
	"slices"
	"testing"

	"kith/store"
	"kith/store/storetest"
)

func strp(s string) *string { return &s }

// TestChannelsOfMoreKinds: Telegram, Pushover and Matrix channels keep
// their chat, user and room; an update replaces them, keeps the token
// when asked to, and a kind that has none of them clears them.
func TestChannelsOfMoreKinds(t *testing.T) {
	s := newStore(t)
	ctx := t.Context()
	u := newUser(t, s)
	tg, err := s.CreateChannel(ctx, u.ID, store.ChannelInput{Kind: "telegram", Token: strp("123:bot"), ChatID: strp("-100200"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if tg.Kind != "telegram" || tg.URL != nil || *tg.Token != "123:bot" || *tg.ChatID != "-100200" || tg.UserKey != nil || tg.RoomID != nil {
		t.Errorf("telegram channel %+v", tg)
	}
	po, err := s.CreateChannel(ctx, u.ID, store.ChannelInput{Kind: "pushover", Token: strp("app"), UserKey: strp("uKey"), Enabled: true})
	if err != nil || *po.UserKey != "uKey" || po.ChatID != nil {
		t.Fatalf("pushover channel %+v %v", po, err)
	}
	mx, err := s.CreateChannel(ctx, u.ID, store.ChannelInput{Kind: "matrix", URL: strp("https://matrix.example"), Token: strp("syt_x"),
		RoomID: strp("!room:example"), Enabled: true})
	if err != nil || *mx.RoomID != "!room:example" {
		t.Fatalf("matrix channel %+v %v", mx, err)
	}
	// A new chat, the token kept.
	tg, err = s.UpdateChannel(ctx, u.ID, tg.ID, store.ChannelInput{Kind: "telegram", ChatID: strp("@news"), Enabled: true, KeepOlderToken: true})
	if err != nil || *tg.ChatID != "@news" || tg.Token == nil || *tg.Token != "123:bot" {
		t.Errorf("telegram updated %+v %v", tg, err)
	}
	// Turned into a Gotify channel: no room any more.
	mx, err = s.UpdateChannel(ctx, u.ID, mx.ID, store.ChannelInput{Kind: "gotify", URL: strp("https://gotify.example"), Token: strp("gt"), Enabled: true})
	if err != nil || mx.RoomID != nil || *mx.Token != "gt" {
		t.Errorf("matrix to gotify %+v %v", mx, err)
	}
	targets, err := s.ReminderTargets(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var kinds []string
	for _, tt := range targets {
		for _, ch := range tt.Channels {
			kinds = append(kinds, ch.Kind)
			if ch.ID == po.ID && (ch.UserKey == nil || *ch.UserKey != "uKey") {
				t.Errorf("the daily pass reads pushover as %+v", ch)
			}
		}
	}
	if !slices.Equal(kinds, []string{"email", "telegram", "pushover", "gotify"}) {
		t.Errorf("targets' channels %v", kinds)
	}
}

// TestMigrationKeepsChannels: the migration that lets channels take the
// new kinds keeps every channel as it was, its id too, and a deleted
// channel's id is not given again.
func TestMigrationKeepsChannels(t *testing.T) {
	ctx := t.Context()
	where := storetest.Fresh(t)
	s, err := store.Open(ctx, where)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	if _, err := s.MigrateTo(ctx, 33); err != nil {
		t.Fatal(err)
	}
	storetest.Exec(t, where, `INSERT INTO accounts (created_at) VALUES (1)`)
	storetest.Exec(t, where, `INSERT INTO users (account_id, first_name, last_name, email, password_hash, created_at, updated_at)
		SELECT max(id), 'Ada', 'L', 'ada@example.com', 'x', 1, 1 FROM accounts`)
	for _, q := range []string{
		`INSERT INTO channels (user_id, kind, url, token, enabled, done_day, last_error, created_at, updated_at)
			SELECT max(id), 'gotify', 'https://g.example', 'gt', false, '2026-01-02', 'gotify answered 500', 5, 6 FROM users`,
		`INSERT INTO channels (user_id, kind, url, created_at, updated_at) SELECT max(id), 'ntfy', 'https://ntfy.sh/x', 7, 8 FROM users`,
	} {
		storetest.Exec(t, where, q)
	}
	last := storetest.Count(t, where, `SELECT max(id) FROM channels`)
	storetest.Exec(t, where, `DELETE FROM channels WHERE id = ?`, last)
	applied, err := s.Migrate(ctx)
	if err != nil || !slices.Contains(applied, "0034_more_channels") {
		t.Fatalf("applied %v, %v", applied, err)
	}
	uid := int64(storetest.Count(t, where, `SELECT max(id) FROM users`))
	chans, err := s.Channels(ctx, uid)
	if err != nil || len(chans) != 1 {
		t.Fatalf("channels %+v %v", chans, err)
	}
	g := chans[0]
	if g.Kind != "gotify" || *g.URL != "https://g.example" || *g.Token != "gt" || g.Enabled || *g.DoneDay != "2026-01-02" ||
		*g.LastError != "gotify answered 500" || g.CreatedAt != 5 || g.UpdatedAt != 6 || g.ChatID != nil {
		t.Errorf("gotify channel after the migration: %+v", g)
	}
	tg, err := s.CreateChannel(ctx, uid, store.ChannelInput{Kind: "telegram", Token: strp("1:a"), ChatID: strp("1"), Enabled: true})
	if err != nil {
		t.Fatal(err)
	}
	if tg.ID <= int64(last) {
		t.Errorf("a new channel took id %d, the deleted one's was %d", tg.ID, last)
	}
}
