package store_test

import (
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"kith/store"
)

// BenchmarkPutCardEmails is a card of many EMAIL lines written at once,
// as a CardDAV PUT or a vCard import writes it (issue 27, H2): the worst
// a person may be given in one write is store.MaxContactDetails of them.
func BenchmarkPutCardEmails(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			s, _ := newStoreAt(b)
			me := benchUser(b, s, 1)
			details := emailsIn(n)
			i := 0
			for b.Loop() {
				i++
				if _, _, err := s.PutCard(b.Context(), me.AccountID, store.CardInput{UID: fmt.Sprint("card-", i), FirstName: "Many", Details: details}, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
	// The worst write the cap allows: a person's every email replaced
	// by as many others.
	b.Run("1000-replaced", func(b *testing.B) {
		s, _ := newStoreAt(b)
		me := benchUser(b, s, 1)
		lists := [2][]store.ContactDetailInput{emailsIn(store.MaxContactDetails), emailsIn(store.MaxContactDetails)}
		for j := range lists[1] {
			v := "other-" + *lists[1][j].Value
			lists[1][j].Value = &v
		}
		i := 0
		for b.Loop() {
			i++
			if _, _, err := s.PutCard(b.Context(), me.AccountID, store.CardInput{UID: "card", FirstName: "Many", Details: lists[i%2]}, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPutCardEmailsBeside is what other users feel of the worst
// write the cap allows: while a card's store.MaxContactDetails emails are
// replaced by as many others, another account creates persons one after
// another, each one write; it reports how long the card took (on SQLite,
// how long it held the writer) and the other writes' median and longest
// time.
func BenchmarkPutCardEmailsBeside(b *testing.B) {
	s, _ := newStoreAt(b)
	me, other := benchUser(b, s, 1), benchUser(b, s, 2)
	lists := [2][]store.ContactDetailInput{emailsIn(store.MaxContactDetails), emailsIn(store.MaxContactDetails)}
	for j := range lists[1] {
		v := "other-" + *lists[1][j].Value
		lists[1][j].Value = &v
	}
	if _, _, err := s.PutCard(b.Context(), me.AccountID, store.CardInput{UID: "card", FirstName: "Many", Details: lists[0]}, nil); err != nil {
		b.Fatal(err)
	}
	var card, p50, worst time.Duration
	i := 0
	for b.Loop() {
		i++
		var wg sync.WaitGroup
		stop := make(chan struct{})
		var lat []time.Duration
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				start := time.Now()
				if _, err := s.CreatePerson(b.Context(), other.AccountID, personIn("Other")); err != nil {
					b.Error(err)
					return
				}
				lat = append(lat, time.Since(start))
			}
		})
		time.Sleep(20 * time.Millisecond)
		start := time.Now()
		if _, _, err := s.PutCard(b.Context(), me.AccountID, store.CardInput{UID: "card", FirstName: "Many", Details: lists[i%2]}, nil); err != nil {
			b.Fatal(err)
		}
		card += time.Since(start)
		time.Sleep(20 * time.Millisecond)
		close(stop)
		wg.Wait()
		slices.Sort(lat)
		if len(lat) > 0 {
			p50 += lat[len(lat)/2]
			worst = max(worst, lat[len(lat)-1])
		}
	}
	b.ReportMetric(float64(card.Milliseconds())/float64(i), "card-ms")
	b.ReportMetric(float64(p50.Microseconds())/1000/float64(i), "other-p50-ms")
	b.ReportMetric(float64(worst.Microseconds())/1000, "other-max-ms")
}

// benchUser is a user of an account of its own.
func benchUser(b *testing.B, s *store.Store, n int) store.User {
	u, err := s.CreateUser(b.Context(), store.NewUser{FirstName: "Bench", LastName: "User",
		Email: fmt.Sprintf("bench%d@example.com", n), Password: testPassword})
	if err != nil {
		b.Fatal(err)
	}
	return u
}
