package remind

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"time"

	"github.com/rs/zerolog"

	"kith/server/input"
	"kith/server/mail"
	"kith/store"
)

// Scheduler sends the daily digests: a pass a minute (Run) delivers each
// user's digest (Digest) to each of their channels that is due it, and
// the store records what was sent. It is made of plain values, which the
// server wires: it knows nothing of HTTP.
type Scheduler struct {
	// Store reads what is due and records each delivery; its clock
	// (Store.Now) is the scheduler's.
	Store *store.Store
	// Mailer sends the email digests; nil writes them to Log instead.
	Mailer mail.Mailer
	// Sender delivers to ntfy, Gotify, webhooks, Telegram, Pushover and
	// Matrix.
	Sender Sender
	// SendAt is when digests go out, "HH:MM" in each user's zone, for the
	// users who have not chosen.
	SendAt string
	Log    zerolog.Logger
	// Count, when not nil, counts each digest a channel was sent, or
	// failed to be, by the channel's kind: the server's metrics.
	Count func(kind string, sent bool)
	// BaseURL is the configured address pages start with, without a
	// trailing slash: digests link to the dashboard, each person and
	// each item's action. Empty, digests carry no links.
	BaseURL string
	// Ticks, when not nil, starts Run's passes after the first instead of
	// the clock's minutes: a test drives them beside the store's clock.
	Ticks <-chan time.Time

	init    sync.Once
	noBase  sync.Once     // the warning that digests carry no action links
	turns   chan struct{} // reminderWorkers of them: a user's send holds one
	mu      sync.Mutex
	busy    map[int64]bool // the users being sent to
	sending sync.WaitGroup // the users' sends that Run started
}

// How the scheduler retries a channel that fails: reminderTries tries a
// day, waiting retryAfter between them (the last wait repeats).
const reminderTries = 5

var retryAfter = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

var errUnverifiedDigest = errors.New("the email address is not verified: verify it to get reminders by email")

// reminderWorkers is how many users' digests are sent at once.
const reminderWorkers = 8

// claimFor is how long a server holds a channel while it sends: past it,
// another server may try, should this one have died mid-send.
const claimFor = 5 * time.Minute

// Run sends the daily digests until ctx ends: a pass at the start of
// every minute. A pass sends what is due and not yet recorded as sent, so
// a server that was down at a user's hour sends on its first pass back,
// that same day. Passes do not wait for each other: a user whose channels
// are slow is still being sent to while the next minutes' passes send
// everyone else's digests. Run returns once the sends it started are over.
func (s *Scheduler) Run(ctx context.Context) {
	defer s.sending.Wait()
	for {
		// What a user's send fails at is logged by the user (start):
		// only the pass's own reading is left to log here.
		if _, err := s.start(ctx); err != nil && ctx.Err() == nil {
			s.Log.Error().Err(err).Msg("reminder pass failed")
		}
		if !s.nextPass(ctx) {
			return
		}
	}
}

// nextPass waits for the start of the next minute, or the next of Ticks,
// and reports whether it came before ctx ended.
func (s *Scheduler) nextPass(ctx context.Context) bool {
	next := s.Ticks
	if next == nil {
		now := time.Now()
		next = time.After(now.Truncate(time.Minute).Add(time.Minute).Sub(now))
	}
	select {
	case <-ctx.Done():
		return false
	case <-next:
		return true
	}
}

// Pass sends every digest due at the store's clock's time, and records
// each delivery as the channel accepts it; it returns when its sends are
// over. A user still being sent to by an earlier pass is left to it.
func (s *Scheduler) Pass(ctx context.Context) error {
	wait, err := s.start(ctx)
	if err != nil {
		return err
	}
	return wait()
}

// start begins a pass: each user due a look who is not being sent to
// already gets a goroutine, which waits for one of reminderWorkers turns
// and then sends that user's digests. So each user's channels are theirs
// alone to wait for, a few users are sent to at a time, and SQLite's
// writer commits their records together. wait waits for this pass's
// sends and joins their errors, which are logged by user as they come.
func (s *Scheduler) start(ctx context.Context) (wait func() error, err error) {
	now := s.Store.Now()
	targets, err := s.Store.ReminderTargets(ctx)
	if err != nil {
		return nil, err
	}
	s.init.Do(func() {
		s.turns = make(chan struct{}, reminderWorkers)
		s.busy = make(map[int64]bool)
	})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var errs []error
	for _, t := range targets {
		if !s.take(t.UserID) {
			continue
		}
		wg.Add(1)
		s.sending.Add(1)
		go func() {
			defer s.sending.Done()
			defer wg.Done()
			defer s.leave(t.UserID)
			select {
			case s.turns <- struct{}{}:
			case <-ctx.Done():
				return
			}
			err := s.remindUser(ctx, t, now)
			<-s.turns
			if err != nil {
				if ctx.Err() == nil {
					s.Log.Error().Err(err).Int64("user_id", t.UserID).Msg("reminder digests failed")
				}
				mu.Lock()
				errs = append(errs, err)
				mu.Unlock()
			}
		}()
	}
	return func() error {
		wg.Wait()
		return errors.Join(errs...)
	}, nil
}

// take marks the user as being sent to, unless they are already.
func (s *Scheduler) take(userID int64) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.busy[userID] {
		return false
	}
	s.busy[userID] = true
	return true
}

func (s *Scheduler) leave(userID int64) {
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.busy, userID)
}

// remindUser sends the user's digest to each channel that is due it.
func (s *Scheduler) remindUser(ctx context.Context, t store.ReminderTarget, now time.Time) error {
	loc := input.UserZone(t.Timezone)
	local := now.In(loc)
	sendAt := s.SendAt
	if t.Settings.SendAt != nil {
		sendAt = *t.Settings.SendAt
	}
	if local.Format("15:04") < sendAt {
		return nil
	}
	today := Today(now, loc)
	day := today.Format(time.DateOnly)
	var due []store.Channel
	// A user who had more channels before there was a cap is sent to on
	// the first MaxChannels of their enabled ones.
	for _, ch := range t.Channels[:min(len(t.Channels), store.MaxChannels)] {
		if (ch.DoneDay == nil || *ch.DoneDay < day) && (ch.RetryAt == nil || *ch.RetryAt <= now.Unix()) {
			due = append(due, ch)
		}
	}
	if len(due) == 0 {
		return nil
	}
	src, err := ReadSource(ctx, s.Store, t.AccountID, t.UserID, today, int(t.Settings.Days), loc)
	if err != nil {
		return err
	}
	msg := Message{Date: day, FirstName: t.FirstName, Email: t.Email, UserID: t.UserID,
		Days: Digest(src, today, int(t.Settings.Days), loc), Base: s.BaseURL}
	if err := s.addActions(ctx, msg, now); err != nil {
		return err
	}
	for _, ch := range due {
		if err := s.deliverDigest(ctx, t, ch, msg, now); err != nil {
			return err
		}
	}
	return nil
}

// addActions signs the digest's action links, or says once per process
// that without base_url there are none: a link needs an address.
func (s *Scheduler) addActions(ctx context.Context, msg Message, now time.Time) error {
	if s.BaseURL == "" {
		s.noBase.Do(func() {
			s.Log.Warn().Msg("base_url is not set: reminder digests carry no action links (Mark done, Log a call, Snooze a week) and no links to pages")
		})
		return nil
	}
	key, err := s.Store.ActionSecret(ctx)
	if err != nil {
		return err
	}
	AddActions(msg.Days, key, s.BaseURL, msg.UserID, now)
	return nil
}

// ReadSource reads what the account's reminders from today through days
// later are made of, and the user's snoozes: for the digests, the
// upcoming reminders and the web app's dashboard. A user with snoozes
// gets the dates of the week before today too, for a snoozed one to
// show a week late.
func ReadSource(ctx context.Context, st *store.Store, accountID, userID int64, today time.Time, days int, loc *time.Location) (Source, error) {
	weekAgo := today.AddDate(0, 0, -snoozeDays)
	snoozes, err := st.Snoozes(ctx, userID, weekAgo.Format(time.DateOnly))
	if err != nil {
		return Source{}, err
	}
	from, span := today, days
	if len(snoozes) > 0 {
		from, span = weekAgo, days+snoozeDays
	}
	spans := Spans(from, span)
	end := time.Date(today.Year(), today.Month(), today.Day()+days+1, 0, 0, 0, 0, loc)
	data, err := st.ReminderData(ctx, accountID, end.Unix(), spans, eventSpans(from, span))
	if err != nil {
		return Source{}, err
	}
	src := Source{Yearly: data.Yearly, Tasks: data.Tasks, Snoozes: snoozes}
	dates, err := st.YearlyDates(ctx, accountID, spans)
	if err != nil {
		return Source{}, err
	}
	for _, d := range dates {
		src.Yearly = append(src.Yearly, store.Yearly{ID: d.ID, PersonID: d.PersonID, PersonName: d.Name, Kind: store.YearlyImportantDate,
			Label: d.Label, Year: d.Year, Month: int(d.Month), Day: int(d.Day)})
	}
	if src.Reminders, err = st.AccountReminders(ctx, accountID, spans); err != nil {
		return Source{}, err
	}
	contacts, err := st.DueContacts(ctx, accountID, today.AddDate(0, 0, days).Format(time.DateOnly))
	if err != nil {
		return Source{}, err
	}
	for _, c := range contacts {
		dueOn, ok := c.DueOn()
		due, err := time.Parse(time.DateOnly, dueOn)
		if !ok || err != nil {
			continue
		}
		src.Contacts = append(src.Contacts, Contact{PersonID: c.PersonID, Person: c.Name, EveryDays: int(c.EveryDays), Due: due})
	}
	return src, nil
}

// deliverDigest sends msg to one channel unless another server has it,
// and records the outcome. Only a crash between the channel's accepting
// and the record can repeat a digest: a missed birthday is worse.
func (s *Scheduler) deliverDigest(ctx context.Context, t store.ReminderTarget, ch store.Channel, msg Message, now time.Time) error {
	ok, err := s.Store.ClaimChannel(ctx, ch.ID, msg.Date, now.Unix(), now.Add(claimFor).Unix())
	if err != nil || !ok {
		return err
	}
	if len(msg.Days) == 0 {
		return s.Store.ChannelIdle(ctx, ch.ID, msg.Date)
	}
	if ch.Kind == "email" && !t.Verified {
		// No retries: the address stays unverified until its owner acts.
		s.count(ch.Kind, false)
		return s.Store.ChannelFailed(ctx, ch.ID, msg.Date, errUnverifiedDigest.Error(), now.Unix(), now.Unix(), true)
	}
	sendErr := s.SendDigest(ctx, ch, msg, t.Verified)
	s.count(ch.Kind, sendErr == nil)
	if sendErr == nil {
		s.Log.Info().Int64("user_id", t.UserID).Int64("channel_id", ch.ID).Str("kind", ch.Kind).
			Str("day", msg.Date).Msg("reminder digest sent")
		// The send is done: record it even if the request that started
		// the pass is going away.
		ctx, at := context.WithoutCancel(ctx), s.Store.Now().Unix()
		if err := s.Store.ChannelDelivered(ctx, ch.ID, msg.Date, at); err != nil {
			return err
		}
		return s.Store.RemindersSent(ctx, t.AccountID, SentOnce(msg.Days, msg.Date), at)
	}
	tries := int64(1)
	if ch.FailDay != nil && *ch.FailDay == msg.Date {
		tries = ch.Failures + 1
	}
	wait := retryAfter[min(int(tries)-1, len(retryAfter)-1)]
	giveUp := tries >= reminderTries
	s.Log.Warn().Err(sendErr).AnErr("cause", LogCause(sendErr)).Int64("user_id", t.UserID).Int64("channel_id", ch.ID).Str("kind", ch.Kind).
		Int64("try", tries).Bool("gave_up", giveUp).Msg("reminder digest not delivered")
	msgText := Clip(sendErr.Error(), 500)
	if giveUp {
		msgText = "gave up for the day after " + strconv.FormatInt(tries, 10) + " tries: " + msgText
	}
	return s.Store.ChannelFailed(context.WithoutCancel(ctx), ch.ID, msg.Date, msgText, now.Unix(), now.Add(wait).Unix(), giveUp)
}

// SendDigest delivers msg to one channel: email by the Mailer (or the
// log), the rest by the Sender. "Send a test" delivers its sample with it.
func (s *Scheduler) SendDigest(ctx context.Context, ch store.Channel, msg Message, verified bool) error {
	if ch.Kind != "email" {
		return s.Sender.Send(ctx, ch, msg)
	}
	if !verified {
		return errUnverifiedDigest
	}
	text, html := msg.Mail()
	if s.Mailer == nil {
		s.Log.Warn().Int64("user_id", msg.UserID).Str("to", msg.Email).Str("subject", msg.Subject()).Str("digest", text).
			Msg("reminder digest (smtp.host is not set, so it is written here instead of sent)")
		return nil
	}
	return s.Mailer.Send(ctx, mail.Message{To: msg.Email, Subject: msg.Subject(), Text: text, HTML: html})
}

// count counts a digest sent to a channel of kind, or not.
func (s *Scheduler) count(kind string, sent bool) {
	if s.Count != nil {
		s.Count(kind, sent)
	}
}
