package server

import (
	"fmt"
	"io"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/VictoriaMetrics/metrics"

	"kith/server/input"
	"kith/server/web"
	"kith/store"
)

// durationBuckets are the upper bounds, in seconds, of the request
// latency histograms: a read answers in a millisecond or two, a create
// waits for the disk, an export or an import takes seconds.
var durationBuckets = []float64{.001, .0025, .005, .01, .025, .05, .1, .25, .5, 1, 2.5, 10}

// The ways in, as the label via of the sign-in series: the API's login,
// the web's password form, CardDAV's Basic auth, an accepted invitation,
// a passkey, single sign-on.
const (
	viaAPI        = "api"
	viaWeb        = web.ViaPassword
	viaCardDAV    = "carddav"
	viaInvitation = web.ViaInvitation
	viaPasskey    = web.ViaPasskey
	viaOIDC       = web.ViaOIDC
)

// signInVias are the ways a person signs in, each with its series; CardDAV
// authenticates with a key, so only its failures count.
var signInVias = []string{viaAPI, viaWeb, viaInvitation, viaPasskey, viaOIDC}

// serverMetrics are the server's Prometheus series, in a set of its own
// rather than the library's global one, so that servers side by side (as
// in tests) count apart.
//
// Request series are labelled by route pattern (/api/persons/:person),
// never by path: ids would make a series each. The method is one of a
// fixed list or "other", and a path no route matches is route="unmatched",
// so a client cannot make new series at will.
type serverMetrics struct {
	set    *metrics.Set
	routes map[string]bool // registered route patterns

	requests sync.Map // requestKey → requestSeries

	rateLimited    *metrics.Counter
	signIns        map[string]*metrics.Counter // by via
	loginFailures  map[string]*metrics.Counter // by via
	loginThrottled map[string]*metrics.Counter // by via
	remindersSent  map[string]*metrics.Counter // by channel kind
	remindersFail  map[string]*metrics.Counter // by channel kind
}

type requestKey struct {
	route, method string
	class         int // status / 100
}

// requestSeries are the series a request of a requestKey updates: its
// count, and its route's durations (shared by the route's keys).
type requestSeries struct {
	count     *metrics.Counter
	durations *metrics.PrometheusHistogram
}

// metricMethods are the methods that get a label of their own.
var metricMethods = map[string]bool{http.MethodGet: true, http.MethodHead: true, http.MethodPost: true,
	http.MethodPut: true, http.MethodPatch: true, http.MethodDelete: true, http.MethodOptions: true,
	"PROPFIND": true, "REPORT": true}

func newServerMetrics(st *store.Store) *serverMetrics {
	set := metrics.NewSet()
	m := &serverMetrics{
		set:            set,
		routes:         make(map[string]bool),
		rateLimited:    set.NewCounter("kith_rate_limited_total"),
		signIns:        make(map[string]*metrics.Counter),
		loginFailures:  make(map[string]*metrics.Counter),
		loginThrottled: make(map[string]*metrics.Counter),
		remindersSent:  make(map[string]*metrics.Counter),
		remindersFail:  make(map[string]*metrics.Counter),
	}
	// Every series of a fixed label set exists from the start, at 0, so
	// that rate() sees its first increase.
	for _, via := range signInVias {
		m.signIns[via] = set.NewCounter(`kith_sign_ins_total{via="` + via + `"}`)
	}
	for _, via := range []string{viaAPI, viaWeb, viaCardDAV, viaPasskey, viaOIDC} {
		m.loginFailures[via] = set.NewCounter(`kith_login_failures_total{via="` + via + `"}`)
		m.loginThrottled[via] = set.NewCounter(`kith_login_throttled_total{via="` + via + `"}`)
	}
	for _, kind := range input.ChannelKinds {
		m.remindersSent[kind] = set.NewCounter(`kith_reminders_sent_total{kind="` + kind + `"}`)
		m.remindersFail[kind] = set.NewCounter(`kith_reminders_failed_total{kind="` + kind + `"}`)
	}
	set.RegisterMetricsWriter(func(w io.Writer) { writePoolStats(w, st.PoolStats()) })
	return m
}

// writePoolStats writes the database's figures, read once per scrape.
func writePoolStats(w io.Writer, p store.PoolStats) {
	metrics.WriteGaugeUint64(w, "kith_db_reader_max_open", uint64(p.ReaderMaxOpen))
	metrics.WriteGaugeUint64(w, "kith_db_reader_open", uint64(p.ReaderOpen))
	metrics.WriteGaugeUint64(w, "kith_db_reader_in_use", uint64(p.ReaderInUse))
	metrics.WriteCounterUint64(w, "kith_db_reader_wait_total", uint64(p.ReaderWaits))
	metrics.WriteCounterFloat64(w, "kith_db_reader_wait_seconds_total", p.ReaderWaited.Seconds())
	metrics.WriteGaugeUint64(w, "kith_db_writer_queue", uint64(p.WriterQueue))
	metrics.WriteCounterUint64(w, "kith_db_writer_wait_total", uint64(p.WriterWaits))
	metrics.WriteCounterFloat64(w, "kith_db_writer_wait_seconds_total", p.WriterWaited.Seconds())
	metrics.WriteCounterUint64(w, "kith_db_writes_total", uint64(p.Writes))
	metrics.WriteCounterUint64(w, "kith_db_commits_total", uint64(p.Commits))
}

// knowRoutes records route patterns: anything else is "unmatched".
func (m *serverMetrics) knowRoutes(paths ...string) {
	for _, p := range paths {
		m.routes[p] = true
	}
}

// request counts one answered request and its duration.
func (m *serverMetrics) request(route, method string, status int, d time.Duration) {
	if !m.routes[route] {
		route = "unmatched"
	}
	if !metricMethods[method] {
		method = "other"
	}
	// One lookup per request; the series are made on a key's first request.
	k := requestKey{route, method, status / 100}
	v, ok := m.requests.Load(k)
	if !ok {
		v, _ = m.requests.LoadOrStore(k, requestSeries{
			count: m.set.GetOrCreateCounter(fmt.Sprintf(`kith_http_requests_total{route=%s,method=%s,status="%dxx"}`,
				strconv.Quote(route), strconv.Quote(method), k.class)),
			durations: m.set.GetOrCreatePrometheusHistogramExt(
				`kith_http_request_duration_seconds{route=`+strconv.Quote(route)+`}`, durationBuckets),
		})
	}
	rs := v.(requestSeries)
	rs.count.Inc()
	rs.durations.Update(d.Seconds())
}

// signedIn counts a whole sign-in, second factor included.
func (m *serverMetrics) signedIn(via string) { m.signIns[via].Inc() }

// failedLogin counts a wrong password or key; throttledLogin a login
// refused before its check, by the throttles or for want of a password slot.
func (m *serverMetrics) failedLogin(via string)    { m.loginFailures[via].Inc() }
func (m *serverMetrics) throttledLogin(via string) { m.loginThrottled[via].Inc() }

// reminder counts a digest sent to a channel of kind, or not.
func (m *serverMetrics) reminder(kind string, sent bool) {
	counters := m.remindersFail
	if sent {
		counters = m.remindersSent
	}
	if c, ok := counters[kind]; ok {
		c.Inc()
	}
}

// MetricsHandler serves the server's metrics in Prometheus's text format,
// with the Go runtime's and the process's (go_*, process_*). kith serve
// serves it on metrics.addr, apart from the API: it needs no key.
func (s *Server) MetricsHandler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; version=0.0.4; charset=utf-8")
		s.metrics.set.WritePrometheus(w)
		metrics.WriteProcessMetrics(w)
	})
}
