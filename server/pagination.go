package server

import (
	"net/url"
	"strconv"

	"kith/server/input"
)

// readPage reads page (from 1) and per_page (1 to 100, 15 unless sent),
// recording their failures on p.
func readPage(p *input.Params) (page, perPage int64) {
	page, perPage = 1, 15
	if n := p.Integer("page"); n != nil && *n < 1 {
		p.Fail("page", "The page field must be at least 1.")
	} else if n != nil {
		page = *n
	}
	if n := p.Between("per_page", 1, 100); n != nil {
		perPage = *n
	}
	return page, perPage
}

type pageLinks struct {
	First string  `json:"first"`
	Last  string  `json:"last"`
	Prev  *string `json:"prev"`
	Next  *string `json:"next"`
}

// pageMeta counts in int64: page is the client's number, and int is 32
// bits on the ARM builds.
type pageMeta struct {
	CurrentPage int64  `json:"current_page"`
	From        *int64 `json:"from"`
	LastPage    int64  `json:"last_page"`
	Path        string `json:"path"`
	PerPage     int64  `json:"per_page"`
	To          *int64 `json:"to"`
	Total       int64  `json:"total"`
}

type pageBody[T any] struct {
	Data  []T       `json:"data"`
	Links pageLinks `json:"links"`
	Meta  pageMeta  `json:"meta"`
}

// pageOf wraps one page of items the way Laravel's paginator does. The
// links keep per_page when the client chose it, so following them keeps
// the page size.
func pageOf[T any](path string, items []T, page, perPage, total int64, keepPerPage bool) pageBody[T] {
	return pageOfQuery(path, nil, items, page, perPage, total, keepPerPage)
}

// pageOfQuery is pageOf for a list that query narrows (a search): its
// links keep query.
func pageOfQuery[T any](path string, query url.Values, items []T, page, perPage, total int64, keepPerPage bool) pageBody[T] {
	last := max(1, (total+perPage-1)/perPage)
	link := func(n int64) string {
		q := url.Values{"page": {strconv.FormatInt(n, 10)}}
		for k, v := range query {
			q[k] = v
		}
		if keepPerPage {
			q.Set("per_page", strconv.FormatInt(perPage, 10))
		}
		return path + "?" + q.Encode()
	}
	b := pageBody[T]{
		Data:  items,
		Links: pageLinks{First: link(1), Last: link(last)},
		Meta:  pageMeta{CurrentPage: page, LastPage: last, Path: path, PerPage: perPage, Total: total},
	}
	if page > 1 {
		prev := link(min(page-1, last))
		b.Links.Prev = &prev
	}
	if page < last {
		next := link(page + 1)
		b.Links.Next = &next
	}
	if len(items) > 0 {
		from := input.PageOffset(page, perPage) + 1 // items exist, so the offset did not saturate
		to := from + int64(len(items)) - 1
		b.Meta.From, b.Meta.To = &from, &to
	}
	return b
}
