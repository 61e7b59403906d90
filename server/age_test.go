package server

import (
	"kith/store"
	"strings"
	"testing"
	"time"
)

func TestAgeValidation(t *testing.T) {
	e := newEnv(t) // today is 2026-03-15
	_, key := e.user("ada@example.com")
	path := "/api/persons/" + e.person(key, "first_name=Jim") + "/age"
	patch := func(q string) req { return req{method: "PATCH", path: path + "?" + q, key: key} }
	e.run(t, []scenario{
		{"age_type missing", patch("add_yearly_reminder=1"), 422, errBody(422, "The age type field is required.")},
		{"age_type unknown", patch("age_type=roughly&add_yearly_reminder=1"), 422, errBody(422, "The selected age type is invalid.")},
		{"add_yearly_reminder missing", patch("age_type=bracket&age_bracket=18-25"), 422, errBody(422, "The add yearly reminder field is required.")},
		{"add_yearly_reminder not a boolean", patch("age_type=bracket&age_bracket=18-25&add_yearly_reminder=often"), 422,
			errBody(422, "The add yearly reminder field must be true or false.")},
		{"exact without a year", patch("age_type=exact&add_yearly_reminder=0"), 422, errBody(422, "The age year field is required when age type is exact.")},
		{"year before 1900", patch("age_type=exact&age_year=1899&add_yearly_reminder=0"), 422, errBody(422, "The age year field must be between 1900 and 2026.")},
		{"year after this one", patch("age_type=exact&age_year=2027&add_yearly_reminder=0"), 422, errBody(422, "The age year field must be between 1900 and 2026.")},
		{"year not a number", patch("age_type=exact&age_year=old&add_yearly_reminder=0"), 422, errBody(422, "The age year field must be an integer.")},
		{"month 13", patch("age_type=exact&age_year=1980&age_month=13&add_yearly_reminder=0"), 422, errBody(422, "The age month field must be between 1 and 12.")},
		{"day 32", patch("age_type=exact&age_year=1980&age_day=32&add_yearly_reminder=0"), 422, errBody(422, "The age day field must be between 1 and 31.")},
		{"30 February", patch("age_type=exact&age_year=1980&age_month=2&age_day=30&add_yearly_reminder=0"), 422,
			errBody(422, "The age day field must be a valid day of the month.")},
		{"29 February of a common year", patch("age_type=exact&age_year=1981&age_month=2&age_day=29&add_yearly_reminder=0"), 422,
			errBody(422, "The age day field must be a valid day of the month.")},
		{"31 April", patch("age_type=exact&age_year=1980&age_month=4&age_day=31&add_yearly_reminder=0"), 422,
			errBody(422, "The age day field must be a valid day of the month.")},
		{"estimated without an age", patch("age_type=estimated&add_yearly_reminder=0"), 422,
			errBody(422, "The estimated age field is required when age type is estimated.")},
		{"estimated age over 150", patch("age_type=estimated&estimated_age=151&add_yearly_reminder=0"), 422,
			errBody(422, "The estimated age field must be between 0 and 150.")},
		{"negative estimated age", patch("age_type=estimated&estimated_age=-1&add_yearly_reminder=0"), 422,
			errBody(422, "The estimated age field must be between 0 and 150.")},
		{"bracket without a range", patch("age_type=bracket&add_yearly_reminder=0"), 422,
			errBody(422, "The age bracket field is required when age type is bracket.")},
		{"bracket upside down", patch("age_type=bracket&age_bracket=30-20&add_yearly_reminder=0"), 422, errBody(422, "The age bracket field format is invalid.")},
		{"bracket past 150", patch("age_type=bracket&age_bracket=100-151&add_yearly_reminder=0"), 422, errBody(422, "The age bracket field format is invalid.")},
		{"bracket of words", patch("age_type=bracket&age_bracket=young&add_yearly_reminder=0"), 422, errBody(422, "The age bracket field format is invalid.")},
		{"missing person", req{method: "PATCH", path: "/api/persons/999/age", key: key}, 404, errBody(404, "Person not found.")},
		{"exact with a year only, 1 January counts", patch("age_type=exact&age_year=1980&add_yearly_reminder=1"), 200,
			[]string{`"age":{"age":46,"age_type":"exact","birth_day":null,"birth_month":null,"birth_year":1980,"yearly_reminder":true}`}},
		{"parameters of the other kinds are ignored", patch("age_type=bracket&age_bracket=18-25&age_year=1000&estimated_age=x&add_yearly_reminder=0"), 200,
			[]string{`"age":{"age":null,"age_bracket":"18-25","age_type":"bracket"}`}},
	})
}

func TestAgeKindsAndSwitching(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Jim")
	path := "/api/persons/" + id + "/age"
	set := func(q string) map[string]any {
		r := e.do(req{method: "PATCH", path: path + "?" + q, key: key})
		if r.code != 200 {
			t.Fatalf("%s: %d %s", q, r.code, r.body)
		}
		return r.json(t)["data"].(map[string]any)["age"].(map[string]any)
	}
	exact := set("age_type=exact&age_year=1979&age_month=10&age_day=1&add_yearly_reminder=true")
	keysOf(t, exact, "age_type", "age", "birth_year", "birth_month", "birth_day", "yearly_reminder")
	if exact["age"] != 46.0 || exact["birth_month"] != 10.0 || exact["birth_day"] != 1.0 {
		t.Errorf("exact: %v", exact)
	}
	est := set("age_type=estimated&estimated_age=40&add_yearly_reminder=0")
	keysOf(t, est, "age_type", "age", "estimated_at")
	if est["age"] != 40.0 || est["estimated_at"] != float64(e.clock.Now().Unix()) {
		t.Errorf("estimated: %v", est)
	}
	bracket := set("age_type=bracket&age_bracket=18-25&add_yearly_reminder=0")
	keysOf(t, bracket, "age_type", "age", "age_bracket")

	// Switching kind cleared what the old kinds stored.
	n := e.count(`SELECT count(*) FROM persons WHERE id = ? AND age_year IS NULL AND age_month IS NULL AND age_day IS NULL
		AND estimated_age IS NULL AND estimated_at IS NULL AND age_bracket = '18-25'`, id)
	if n != 1 {
		t.Errorf("switching to bracket left other kinds' data behind")
	}

	// An estimate grows older with the years.
	set("age_type=estimated&estimated_age=40&add_yearly_reminder=0")
	e.clock.Advance(366 * 24 * time.Hour)
	r := e.do(req{method: "GET", path: "/api/persons/" + id, key: key})
	if !strings.Contains(r.body, `"age":41,"age_type":"estimated"`) {
		t.Errorf("a year after the estimate: %s", r.body)
	}
}

func TestWholeYears(t *testing.T) {
	d := func(s string) time.Time {
		v, err := time.Parse(time.DateOnly, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	cases := []struct {
		born, today string
		want        int
	}{
		{"1980-03-15", "2026-03-14", 45}, // the day before the birthday
		{"1980-03-15", "2026-03-15", 46}, // on the birthday
		{"1980-03-15", "2026-03-16", 46},
		{"1980-12-31", "2026-01-01", 45},
		{"2000-02-29", "2026-02-28", 25}, // born on a leap day: in a common year,
		{"2000-02-29", "2026-03-01", 26}, // a year older on 1 March
		{"2000-02-29", "2028-02-29", 28}, // and on the day itself in a leap year
		{"2000-02-29", "2028-02-28", 27},
		{"2026-03-15", "2026-03-15", 0},
		{"2026-06-01", "2026-03-15", 0}, // not born yet counts as zero, not -1
	}
	for _, c := range cases {
		if got := store.WholeYears(d(c.born), d(c.today)); got != c.want {
			t.Errorf("born %s, on %s: %d, want %d", c.born, c.today, got, c.want)
		}
	}
}

// TestAgeUsesTheUsersTimezone: at 23:30 UTC on 14 March it is already
// 15 March, Jim's birthday, in Tokyo but not in New York.
func TestAgeUsesTheUsersTimezone(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	id := e.person(key, "first_name=Jim")
	e.do(req{method: "PATCH", path: "/api/persons/" + id + "/age?age_type=exact&age_year=1980&age_month=3&age_day=15&add_yearly_reminder=0", key: key})
	e.clock.Advance(-12*time.Hour - 30*time.Minute) // 2026-03-14 23:30 UTC
	ageIn := func(tz string) any {
		if r := e.do(req{method: "PUT", path: "/api/me/timezone?timezone=" + tz, key: key}); r.code != 200 {
			t.Fatalf("timezone %s: %d", tz, r.code)
		}
		r := e.do(req{method: "GET", path: "/api/persons/" + id, key: key})
		return r.json(t)["data"].(map[string]any)["age"].(map[string]any)["age"]
	}
	if got := ageIn("UTC"); got != 45.0 {
		t.Errorf("in UTC: %v, want 45", got)
	}
	if got := ageIn("Asia/Tokyo"); got != 46.0 {
		t.Errorf("in Tokyo: %v, want 46", got)
	}
	if got := ageIn("America/New_York"); got != 45.0 {
		t.Errorf("in New York: %v, want 45", got)
	}
}
