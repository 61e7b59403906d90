package server

import (
	"strings"
	"testing"
	"time"
)

func TestStayInTouchValidation(t *testing.T) {
	e := newEnv(t)
	_, key := e.user("ada@example.com")
	pid := e.person(key, "first_name=Jim")
	path := "/api/persons/" + pid + "/stay-in-touch"
	put := func(q string) req { return req{method: "PUT", path: path + "?" + q, key: key} }
	between := errBody(422, "The every days field must be between 1 and 3650.")
	notInteger := errBody(422, "The every days field must be an integer.")
	none := []string{`{"data":{"object":"stay_in_touch","every_days":null,"last_interaction_on":null,"due_on":null,"due":false}}`}
	e.run(t, []scenario{
		{"no cadence yet", req{method: "GET", path: path, key: key}, 200, none},
		{"HEAD", req{method: "HEAD", path: path, key: key}, 200, nil},
		{"0", put("every_days=0"), 422, between},
		{"-5", put("every_days=-5"), 422, between},
		{"3651", put("every_days=3651"), 422, between},
		{"abc", put("every_days=abc"), 422, notInteger},
		{"1.5", put("every_days=1.5"), 422, notInteger},
		{"true", req{method: "PUT", path: path, key: key, body: `{"every_days":true}`}, 422, notInteger},
		{"an array", req{method: "PUT", path: path, key: key, body: `{"every_days":[7]}`}, 422, notInteger},
		{"not sent", put(""), 422, errBody(422, "The every days field must be present.")},
		{"still none after the refusals", req{method: "GET", path: path, key: key}, 200, none},
		{"1", put("every_days=1"), 200, []string{`"every_days":1,`, `"due_on":"2026-03-16"`, `"due":false`}},
		{"3650, as a JSON string", req{method: "PUT", path: path, key: key, body: `{"every_days":"3650"}`}, 200, []string{`"every_days":3650,`}},
		{"null clears", req{method: "PUT", path: path, key: key, body: `{"every_days":null}`}, 200, none},
		{"set again", put("every_days=7"), 200, []string{`"every_days":7,`}},
		{"empty clears", put("every_days="), 200, none},
		{"clearing no cadence is fine", put("every_days="), 200, none},
		{"a missing person", req{method: "GET", path: "/api/persons/999/stay-in-touch", key: key}, 404, errBody(404, "Person not found.")},
		{"set on a missing person", req{method: "PUT", path: "/api/persons/999/stay-in-touch?every_days=7", key: key}, 404, errBody(404, "Person not found.")},
		{"a missing person with bad input is still 404", req{method: "PUT", path: "/api/persons/999/stay-in-touch?every_days=0", key: key}, 404, errBody(404, "Person not found.")},
		{"POST is not a method of it", req{method: "POST", path: path + "?every_days=7", key: key}, 405, errBody(405, "Method not allowed.")},
		{"no key", req{method: "GET", path: path}, 401, errBody(401, "Unauthenticated.")},
	})
}

// TestStayInTouchDueOnMoves: due_on counts from the last interaction, or
// from the day the cadence was set, and follows every interaction logged,
// edited and deleted.
func TestStayInTouchDueOnMoves(t *testing.T) {
	e := newEnv(t) // 2026-03-15, 12:00 UTC
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	path := "/api/persons/" + jim + "/stay-in-touch"
	state := func(every, last, dueOn, due string) []string {
		return []string{`{"data":{"object":"stay_in_touch","every_days":` + every + `,"last_interaction_on":` + last +
			`,"due_on":` + dueOn + `,"due":` + due + `}}`}
	}
	get := req{method: "GET", path: path, key: key}
	inter := "/api/persons/" + jim + "/interactions"
	step := func(name string, r req, status int) {
		t.Helper()
		if got := e.do(r); got.code != status {
			t.Fatalf("%s: %d %s", name, got.code, got.body)
		}
	}

	e.run(t, []scenario{
		{"set: ten days from today", req{method: "PUT", path: path + "?every_days=10", key: key}, 200, state("10", "null", `"2026-03-25"`, "false")},
	})
	e.clock.Advance(9 * 24 * time.Hour) // the 24th
	e.run(t, []scenario{{"the day before", get, 200, state("10", "null", `"2026-03-25"`, "false")}})
	e.clock.Advance(24 * time.Hour) // the 25th
	e.run(t, []scenario{{"on the day", get, 200, state("10", "null", `"2026-03-25"`, "true")}})

	latest := e.interaction(key, jim, "happened_on=2026-03-24&kind=call")
	e.run(t, []scenario{{"an interaction resets it", get, 200, state("10", `"2026-03-24"`, `"2026-04-03"`, "false")}})
	step("edit earlier", req{method: "PUT", path: inter + "/" + latest + "?happened_on=2026-03-10&kind=call", key: key}, 200)
	e.run(t, []scenario{{"edited to an earlier day, due again", get, 200, state("10", `"2026-03-10"`, `"2026-03-20"`, "true")}})
	step("edit later", req{method: "PUT", path: inter + "/" + latest + "?happened_on=2026-03-25&kind=meeting", key: key}, 200)
	e.run(t, []scenario{{"edited to a later day", get, 200, state("10", `"2026-03-25"`, `"2026-04-04"`, "false")}})
	older := e.interaction(key, jim, "happened_on=2026-03-01&kind=email")
	e.run(t, []scenario{{"an older interaction changes nothing", get, 200, state("10", `"2026-03-25"`, `"2026-04-04"`, "false")}})
	step("delete the latest", req{method: "DELETE", path: inter + "/" + latest, key: key}, 204)
	e.run(t, []scenario{{"deleting the latest moves it back", get, 200, state("10", `"2026-03-01"`, `"2026-03-11"`, "true")}})
	step("delete the last one", req{method: "DELETE", path: inter + "/" + older, key: key}, 204)
	e.run(t, []scenario{
		{"none left: from the day it was set", get, 200, state("10", "null", `"2026-03-25"`, "true")},
		{"a new number keeps the day it was set", req{method: "PUT", path: path + "?every_days=30", key: key}, 200, state("30", "null", `"2026-04-14"`, "false")},
		{"cleared", req{method: "PUT", path: path + "?every_days=", key: key}, 200, state("null", "null", "null", "false")},
		{"set again: from the new today", req{method: "PUT", path: path + "?every_days=7", key: key}, 200, state("7", "null", `"2026-04-01"`, "false")},
	})
	// An interaction is shown without a cadence too.
	e.interaction(key, jim, "happened_on=2026-03-20&kind=call")
	e.run(t, []scenario{
		{"cleared, with an interaction", req{method: "PUT", path: path, key: key, body: `{"every_days":null}`}, 200, state("null", `"2026-03-20"`, "null", "false")},
	})
}

// TestStayInTouchTodayIsTheUsers: the day a cadence is set, and whether it
// is due, are the user's dates in their time zone.
func TestStayInTouchTodayIsTheUsers(t *testing.T) {
	e := newEnv(t) // 2026-03-15 12:00 UTC: the 16th at UTC+14, the 15th at UTC-11
	_, key := e.user("ada@example.com")
	jim := e.person(key, "first_name=Jim")
	path := "/api/persons/" + jim + "/stay-in-touch"
	e.run(t, []scenario{
		{"move to Kiritimati", req{method: "PUT", path: "/api/me/timezone?timezone=Pacific/Kiritimati", key: key}, 200, nil},
		{"set there on the 16th", req{method: "PUT", path: path + "?every_days=1", key: key}, 200, []string{`"due_on":"2026-03-17"`, `"due":false`}},
	})
	e.clock.Advance(22 * time.Hour) // the 16th, 10:00 UTC: the 17th in Kiritimati, still the 15th in Pago Pago
	e.run(t, []scenario{
		{"due on the 17th there", req{method: "GET", path: path, key: key}, 200, []string{`"due":true`}},
		{"move to Pago Pago", req{method: "PUT", path: "/api/me/timezone?timezone=Pacific/Pago_Pago", key: key}, 200, nil},
		{"not yet due on the 15th there", req{method: "GET", path: path, key: key}, 200, []string{`"due_on":"2026-03-17"`, `"due":false`}},
	})
	if n := e.count(`SELECT count(*) FROM stay_in_touch WHERE since_on = '2026-03-16'`); n != 1 {
		t.Errorf("the cadence was not set on the user's 16th")
	}
	if r := e.do(req{method: "GET", path: path, key: key}); !strings.Contains(r.body, `"every_days":1,`) {
		t.Errorf("cadence lost: %s", r.body)
	}
}
