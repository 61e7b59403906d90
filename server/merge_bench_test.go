package server

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"kith/server/photo/phototest"
	"kith/store"
)

// BenchmarkMerge merges two persons that each hold a lot: 300 contact
// details (a third of the other's the same as the kept person's), 300
// notes, 300 tasks, 100 important dates, 100 interactions, 20 jobs, 50
// relationships with third persons, 20 tags and a photo. Each merge is
// one POST …/merge, the two persons made anew before it (outside the
// timer):
//
//	go test ./server -run '^$' -bench Merge -benchtime 5x
//
// Besides ns/op it reports the contact details dropped as doubles
// (doubles-dropped, 100 by construction) and the largest heap
// seen above where it stood before the merge, sampled every millisecond
// (peak-heap-MB).
func BenchmarkMerge(b *testing.B) {
	e := newEnv(b)
	u, key := e.user("merge@example.com")
	ctx := store.WithActor(context.Background(), u.ID)
	third := make([]int64, 50)
	for i := range third {
		p, err := e.st.CreatePerson(ctx, u.AccountID, store.PersonInput{FirstName: fmt.Sprint("Third ", i), MaritalStatus: "unknown", KidsStatus: "unknown", CanBeDeleted: true, IsListed: true})
		if err != nil {
			b.Fatal(err)
		}
		third[i] = p.ID
	}
	photo := phototest.JPEG(phototest.Quadrants(640, 480))
	fill := func(name string, shared int) string {
		id := e.person(key, "first_name="+name)
		pid, err := strconv.ParseInt(id, 10, 64)
		if err != nil {
			b.Fatal(err)
		}
		for i := range 300 {
			v := fmt.Sprintf("%s-%d@example.com", name, i)
			if i < shared {
				v = fmt.Sprintf("shared-%d@example.com", i)
			}
			if _, err := e.st.CreateContactDetail(ctx, u.AccountID, pid, store.ContactDetailInput{Kind: "email", Value: &v}); err != nil {
				b.Fatal(err)
			}
			if _, err := e.st.CreateNote(ctx, u.AccountID, pid, fmt.Sprint("note ", i)); err != nil {
				b.Fatal(err)
			}
			e.task(key, id, fmt.Sprintf("name=task+%d", i))
		}
		for i := range 100 {
			e.importantDate(key, id, fmt.Sprintf("label=date+%d&date=--%02d-%02d", i%10, 1+i%12, 1+i%28))
			e.interaction(key, id, fmt.Sprintf("happened_on=2026-01-%02d&kind=call", 1+i%28))
		}
		for i := range 20 {
			e.workEntry(key, id, fmt.Sprintf("job_title=job+%d&active=%d", i, i%2))
		}
		for i, t := range third {
			e.do(req{method: "POST", path: fmt.Sprintf("/api/persons/%s/relationships?relationship_type_id=%d&person_id=%d", id, 1+i%12, t), key: key})
		}
		tags := "tags[]=" + name
		for i := range 19 {
			tags += fmt.Sprintf("&tags[]=tag+%d", i)
		}
		e.do(req{method: "PUT", path: "/api/persons/" + id + "/tags?" + tags, key: key})
		e.setPhoto(key, id, photo)
		return id
	}
	var all float64
	dropped := 0
	b.ResetTimer()
	for i := range b.N {
		b.StopTimer()
		kept, other := fill(fmt.Sprint("Kept", i), 100), fill(fmt.Sprint("Other", i), 100)
		before := e.count(`SELECT count(*) FROM contact_details`) + e.count(`SELECT count(*) FROM notes`)
		stop := heapPeak()
		b.StartTimer()
		if r := e.merge(key, kept, other); r.code != 200 {
			b.Fatalf("merge: %d %s", r.code, r.body)
		}
		b.StopTimer()
		a, _ := stop()
		all = max(all, a)
		dropped = before - (e.count(`SELECT count(*) FROM contact_details`) + e.count(`SELECT count(*) FROM notes`))
		b.StartTimer()
	}
	b.ReportMetric(float64(dropped), "doubles-dropped")
	b.ReportMetric(all, "peak-heap-MB")
}
