package server

import (
	"encoding/json"
	"math"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/labstack/echo/v4"

	"kith/server/input"
)

// TestPageOf holds the links and meta of a page to Laravel's paginator at
// the edges: no rows, the last page, a page past the end, a kept per_page.
func TestPageOf(t *testing.T) {
	const path = "http://example.com/api/persons"
	for _, tc := range []struct {
		name             string
		items            int
		page, per, total int64
		keep             bool
		want             []string
	}{
		{"no rows is one empty page", 0, 1, 15, 0, false, []string{
			`"data":[]`, `"first":"` + path + `?page=1"`, `"last":"` + path + `?page=1"`, `"prev":null`, `"next":null`,
			`"current_page":1,"from":null,"last_page":1`, `"per_page":15,"to":null,"total":0`}},
		{"a full first page links to the next", 15, 1, 15, 17, false, []string{
			`"last":"` + path + `?page=2"`, `"prev":null`, `"next":"` + path + `?page=2"`,
			`"from":1,"last_page":2`, `"to":15,"total":17`}},
		{"the last page, short, has no next", 2, 2, 15, 17, false, []string{
			`"prev":"` + path + `?page=1"`, `"next":null`, `"from":16,"last_page":2`, `"to":17,"total":17`}},
		{"a total that fills its pages exactly adds none", 5, 2, 5, 10, false, []string{
			`"last":"` + path + `?page=2"`, `"next":null`, `"from":6`, `"to":10`}},
		{"a page past the end is empty and its prev is the last page", 0, 9, 15, 17, false, []string{
			`"data":[]`, `"prev":"` + path + `?page=2"`, `"next":null`, `"current_page":9,"from":null,"last_page":2`, `"to":null`}},
		{"a page past the end of nothing points back to page 1", 0, 3, 15, 0, false, []string{
			`"prev":"` + path + `?page=1"`, `"next":null`, `"last_page":1`}},
		{"the largest page is empty", 0, math.MaxInt64, 100, 17, false, []string{
			`"prev":"` + path + `?page=1"`, `"next":null`, `"current_page":9223372036854775807,"from":null`}},
		{"a chosen per_page is kept in every link", 10, 2, 10, 35, true, []string{
			`"first":"` + path + `?page=1&per_page=10"`, `"last":"` + path + `?page=4&per_page=10"`,
			`"prev":"` + path + `?page=1&per_page=10"`, `"next":"` + path + `?page=3&per_page=10"`,
			`"from":11,"last_page":4`, `"per_page":10,"to":20`}},
		{"the smallest per_page counts one row a page", 1, 3, 1, 3, false, []string{
			`"last":"` + path + `?page=3"`, `"next":null`, `"from":3,"last_page":3`, `"to":3`}},
		{"the largest per_page", 100, 1, 100, 250, true, []string{
			`"last":"` + path + `?page=3&per_page=100"`, `"from":1,"last_page":3`, `"to":100`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b, err := json.Marshal(pageOf(path, make([]int, tc.items), tc.page, tc.per, tc.total, tc.keep))
			if err != nil {
				t.Fatal(err)
			}
			body := strings.ReplaceAll(string(b), `\u0026`, "&")
			for _, w := range tc.want {
				if !strings.Contains(body, w) {
					t.Errorf("want %s in\n%s", w, body)
				}
			}
		})
	}
}

func TestPageOffset(t *testing.T) {
	for _, tc := range []struct{ page, per, want int64 }{
		{1, 15, 0},
		{2, 15, 15},
		{3, 1, 2},
		{math.MaxInt64/100 + 1, 100, math.MaxInt64 / 100 * 100},
		{math.MaxInt64/100 + 2, 100, math.MaxInt64}, // would wrap round: saturates
		{math.MaxInt64, 1, math.MaxInt64 - 1},
		{math.MaxInt64, 100, math.MaxInt64},
	} {
		if got := input.PageOffset(tc.page, tc.per); got != tc.want {
			t.Errorf("pageOffset(%d, %d) = %d, want %d", tc.page, tc.per, got, tc.want)
		}
	}
}

func TestReadPage(t *testing.T) {
	for _, tc := range []struct {
		name, query   string
		page, perPage int64
		wantErr       string
	}{
		{"nothing sent is page 1 of 15", "", 1, 15, ""},
		{"both sent", "page=3&per_page=40", 3, 40, ""},
		{"per_page 1 is the least", "per_page=1", 1, 1, ""},
		{"per_page 100 is the most", "per_page=100", 1, 100, ""},
		{"per_page 0 fails", "per_page=0", 1, 15, "The per page field must be between 1 and 100."},
		{"per_page 101 fails", "per_page=101", 1, 15, "The per page field must be between 1 and 100."},
		{"page 0 fails", "page=0", 1, 15, "The page field must be at least 1."},
		{"a negative page fails", "page=-1", 1, 15, "The page field must be at least 1."},
		{"page not a number fails", "page=two", 1, 15, "The page field must be an integer."},
		{"both failing report both, page first", "page=0&per_page=500", 1, 15, "The page field must be at least 1. (and 1 more error)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := queryParams(t, tc.query)
			page, perPage := readPage(p)
			if page != tc.page || perPage != tc.perPage {
				t.Errorf("page %d per_page %d, want %d %d", page, perPage, tc.page, tc.perPage)
			}
			gotErr := ""
			if err := p.Err(); err != nil {
				gotErr = err.Error()
			}
			if gotErr != tc.wantErr {
				t.Errorf("error %q, want %q", gotErr, tc.wantErr)
			}
		})
	}
}

// queryParams reads a query string's parameters as a handler would.
func queryParams(t *testing.T, query string) *input.Params {
	t.Helper()
	r := httptest.NewRequest("GET", "/api/persons?"+query, nil)
	p, err := input.ReadParams(echo.New().NewContext(r, httptest.NewRecorder()))
	if err != nil {
		t.Fatal(err)
	}
	return p
}
