package store

import (
	"context"
	"fmt"
	"testing"
)

// TestCardsByName: a multiget's batch of names is read with the queries
// of one page of cards, however many names, and each name finds the card
// CardByName finds: by the name a client gave it first, else by the UID
// whose default name it is; none for an unknown name.
func TestCardsByName(t *testing.T) {
	ctx := context.Background()
	s, _ := openTest(t)
	u, err := s.CreateUser(ctx, NewUser{FirstName: "A", LastName: "L", Email: "ada@example.com", Password: "password"})
	if err != nil {
		t.Fatal(err)
	}
	var ins []CardInput
	for i := range 150 {
		ins = append(ins, CardInput{UID: fmt.Sprint("u", i), FirstName: fmt.Sprint("P", i)})
	}
	// Named by a client: its name is another card's default one.
	ins = append(ins, CardInput{UID: "named", Name: "u7.vcf", FirstName: "Named"})
	if _, err := s.PutCards(ctx, u.AccountID, ins); err != nil {
		t.Fatal(err)
	}
	names, uids := []string{"u7.vcf", "gone.vcf"}, []string{"u7", "gone"}
	for i := 100; len(names) < CardNameBatch; i++ {
		names, uids = append(names, fmt.Sprint("u", i, ".vcf")), append(uids, fmt.Sprint("u", i))
	}
	var cards []*Card
	if q := queries(s, func() { cards, err = s.CardsByName(ctx, u.AccountID, names, uids) }); q != 8 || err != nil {
		t.Fatalf("%d names took %d queries (%v)", len(names), q, err)
	}
	for i, c := range cards {
		want, err := s.CardByName(ctx, u.AccountID, names[i], uids[i])
		switch {
		case err != nil && c != nil:
			t.Errorf("%s: %s, want none", names[i], c.UID)
		case err == nil && (c == nil || c.UID != want.UID || c.FirstName != want.FirstName):
			t.Errorf("%s: %v, want %s", names[i], c, want.UID)
		}
	}
	if cards[0] == nil || cards[0].UID != "named" || cards[1] != nil {
		t.Errorf("a client's name before a default one, and an unknown name: %v %v", cards[0], cards[1])
	}
	for _, n := range []int{0, CardNameBatch + 1} {
		if _, err := s.CardsByName(ctx, u.AccountID, make([]string, n), make([]string, n)); err == nil {
			t.Errorf("%d names were taken", n)
		}
	}
}
