package store

import (
	"context"
	"fmt"
	"slices"
	"sort"
	"strings"
	"unicode"
)

// Reasons two persons are a Duplicate, in the order they are given: a
// pair that holds by several is named by the first.
const (
	DuplicateName  = "name"
	DuplicateEmail = "email"
	DuplicatePhone = "phone"
)

var duplicateReasons = [...]string{DuplicateName, DuplicateEmail, DuplicatePhone}

// Duplicate is two of an account's persons that may be one: First has the
// lower id.
type Duplicate struct {
	Reason        string
	First, Second DuplicatePerson
}

// DuplicatePerson is a person of a Duplicate: its id and name.
type DuplicatePerson struct {
	ID   int64
	Name string
}

// Duplicates lists a page of the account's candidate pairs, by the first
// person's id then the second's, with how many there are. Two persons are
// a pair when their names are equal once case-folded and their white
// space collapsed, or they have an email equal ignoring case and white
// space, or a phone number with the same digits.
//
// The persons and their emails and phones are read once, grouped by key
// in one pass, and the pairs are counted person by person without being
// kept: the time is the persons' and the pairs' number, not the persons'
// squared, and the memory the persons' and one page's.
func (s *Store) Duplicates(ctx context.Context, accountID, limit, offset int64) ([]Duplicate, int64, error) {
	g, err := s.duplicateGroups(ctx, accountID)
	if err != nil {
		return nil, 0, err
	}
	page := []Duplicate{}
	var total int64
	seen := make([]int32, len(g.persons)) // seen[j] == i+1: j is already a candidate of i
	reason := make([]uint8, len(g.persons))
	var cands []int32
	for i := range g.persons {
		cands = g.candidates(int32(i), seen, reason, cands[:0])
		n := int64(len(cands))
		// Differences, not sums: offset may be near math.MaxInt64.
		if total+n > offset && total-offset < limit {
			slices.Sort(cands)
			for k, j := range cands {
				if at := total + int64(k); at >= offset && at-offset < limit {
					page = append(page, Duplicate{Reason: duplicateReasons[reason[j]], First: g.persons[i], Second: g.persons[j]})
				}
			}
		}
		total += n
	}
	return page, total, nil
}

// duplicateGroups holds the account's persons (by id) and, for each key
// that two or more of them share, who shares it.
type duplicateGroups struct {
	persons []DuplicatePerson
	groups  [][]int32 // each group's members, indexes of persons, ascending
	reasons []uint8   // each group's reason, an index of duplicateReasons
	of      [][]int32 // each person's groups of two or more
}

// candidates are the persons after i that share a group with it, each
// once, appended to out; reason[j] is the first reason j has.
func (g *duplicateGroups) candidates(i int32, seen []int32, reason []uint8, out []int32) []int32 {
	for _, gi := range g.of[i] {
		members, r := g.groups[gi], g.reasons[gi]
		from := sort.Search(len(members), func(k int) bool { return members[k] > i })
		for _, j := range members[from:] {
			if seen[j] != i+1 {
				seen[j], reason[j] = i+1, r
				out = append(out, j)
			} else {
				reason[j] = min(reason[j], r)
			}
		}
	}
	return out
}

// duplicateGroups reads the account's persons with their emails and
// phones in one query, in id order, and groups them by key.
func (s *Store) duplicateGroups(ctx context.Context, accountID int64) (*duplicateGroups, error) {
	g := &duplicateGroups{}
	byKey := map[string]int32{}
	add := func(person int32, r uint8, key string) {
		if key == "" {
			return // a phone without digits matches nothing
		}
		key = duplicateReasons[r] + "\x00" + key
		gi, ok := byKey[key]
		if !ok {
			gi = int32(len(g.groups))
			byKey[key] = gi
			g.groups = append(g.groups, nil)
			g.reasons = append(g.reasons, r)
		}
		if m := g.groups[gi]; len(m) == 0 || m[len(m)-1] != person { // a person's two equal emails are one
			g.groups[gi] = append(m, person)
		}
	}
	lastID := int64(0)
	err := eachRow(ctx, s.r, `SELECT p.id, p.first_name, p.last_name, d.kind, d.value
		FROM persons p LEFT JOIN contact_details d ON d.person_id = p.id AND d.kind IN ('email', 'phone')
		WHERE p.account_id = ? ORDER BY p.id`, []any{accountID}, func(sc scanner) error {
		var id int64
		var first string
		var last, kind, value *string
		if err := sc.Scan(&id, &first, &last, &kind, &value); err != nil {
			return err
		}
		if id != lastID {
			lastID = id
			name := FullName(first, last)
			g.persons = append(g.persons, DuplicatePerson{ID: id, Name: name})
			add(int32(len(g.persons)-1), 0, foldCase(strings.Join(strings.Fields(name), " ")))
		}
		if kind != nil && value != nil {
			person := int32(len(g.persons) - 1)
			if *kind == "email" {
				add(person, 1, foldCase(strings.Map(dropSpace, *value)))
			} else {
				add(person, 2, strings.Map(keepDigit, *value))
			}
		}
		return nil
	})
	if err != nil {
		return nil, fmt.Errorf("store: find duplicates: %w", err)
	}
	g.of = make([][]int32, len(g.persons))
	for gi, members := range g.groups {
		if len(members) > 1 {
			for _, p := range members {
				g.of[p] = append(g.of[p], int32(gi))
			}
		}
	}
	return g, nil
}

func dropSpace(r rune) rune {
	if unicode.IsSpace(r) {
		return -1
	}
	return r
}

func keepDigit(r rune) rune {
	if r >= '0' && r <= '9' {
		return r
	}
	return -1
}
