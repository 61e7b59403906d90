package cli

import (
	"io"
	"net/http"
	"path/filepath"
	"regexp"
	"testing"
)

// TestBootLimitsPagesApartFromTheAPI: rate.per_minute and
// rate.pages_per_minute reach the server, each its own budget: the
// sign-in page's loads spend none of the API's, and the other way round.
func TestBootLimitsPagesApartFromTheAPI(t *testing.T) {
	t.Setenv("KITH_RATE_PER_MINUTE", "2")
	t.Setenv("KITH_RATE_PAGES_PER_MINUTE", "4")
	s := startServer(t, "--db", filepath.Join(t.TempDir(), "kith.db"))
	base := "http://" + s.addr(t)
	get := func(path string) (int, string) {
		t.Helper()
		res, err := http.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		defer res.Body.Close()
		b, _ := io.ReadAll(res.Body)
		return res.StatusCode, string(b)
	}
	for i := range 4 {
		if code, _ := get("/login"); code != http.StatusOK {
			t.Fatalf("sign-in page %d of 4: %d", i+1, code)
		}
	}
	if code, body := get("/login"); code != http.StatusTooManyRequests || !regexp.MustCompile(`Try again in 1[0-5] seconds\.`).MatchString(body) {
		t.Errorf("fifth sign-in page with rate.pages_per_minute 4: %d %s", code, body)
	}
	for i := range 2 {
		if code, _ := get("/api/openapi.json"); code != http.StatusOK {
			t.Fatalf("API request %d of 2 after the pages' budget ran out: %d", i+1, code)
		}
	}
	if code, _ := get("/api/openapi.json"); code != http.StatusTooManyRequests {
		t.Errorf("third API request with rate.per_minute 2: %d", code)
	}
}
