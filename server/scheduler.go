package server

import (
	"context"
	"errors"
	"path"
	"strconv"
	"sync"
	"time"

	"kith/server/input"
	"kith/server/mail"
	"kith/server/remind"
	"kith/store"
)

// How the scheduler retries a channel that fails: reminderTries tries a
// day, waiting retryAfter between them (the last wait repeats).
const reminderTries = 5

var retryAfter = []time.Duration{time.Minute, 5 * time.Minute, 15 * time.Minute, time.Hour}

var errUnverifiedDigest = errors.New("the email address is not verified: verify it to get reminders by email")

// reminderWorkers is how many users' digests a pass sends at once.
const reminderWorkers = 8

// claimFor is how long a server holds a channel while it sends: past it,
// another server may try, should this one have died mid-send.
const claimFor = 5 * time.Minute

// RunReminders sends the daily digests until ctx ends: a pass at the
// start of every minute. A pass sends what is due and not yet recorded as
// sent, so a server that was down at a user's hour sends on its first
// pass back, that same day.
func (s *Server) RunReminders(ctx context.Context) {
	for {
		if err := s.ReminderPass(ctx); err != nil && ctx.Err() == nil {
			s.log.Error().Err(err).Msg("reminder pass failed")
		}
		now := time.Now()
		select {
		case <-ctx.Done():
			return
		case <-time.After(now.Truncate(time.Minute).Add(time.Minute).Sub(now)):
		}
	}
}

// ReminderPass sends every digest due at the store's clock's time, and
// records each delivery as the channel accepts it.
func (s *Server) ReminderPass(ctx context.Context) error {
	now := s.store.Now()
	targets, err := s.store.ReminderTargets(ctx)
	if err != nil {
		return err
	}
	// A few users at a time: one slow webhook does not hold up everyone's
	// digest, and SQLite's writer commits their records together.
	work := make(chan store.ReminderTarget)
	errc := make(chan error, len(targets))
	var wg sync.WaitGroup
	for range min(reminderWorkers, len(targets)) {
		wg.Go(func() {
			for t := range work {
				if err := s.remindUser(ctx, t, now); err != nil {
					errc <- err
				}
			}
		})
	}
	for _, t := range targets {
		if ctx.Err() != nil {
			break
		}
		work <- t
	}
	close(work)
	wg.Wait()
	close(errc)
	var errs []error
	for err := range errc {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// remindUser sends the user's digest to each channel that is due it.
func (s *Server) remindUser(ctx context.Context, t store.ReminderTarget, now time.Time) error {
	loc, ok := input.Zone(path.Clean(t.Timezone))
	if !ok {
		loc = time.UTC
	}
	local := now.In(loc)
	sendAt := s.sendAt
	if t.Settings.SendAt != nil {
		sendAt = *t.Settings.SendAt
	}
	if local.Format("15:04") < sendAt {
		return nil
	}
	today := remind.Today(now, loc)
	day := today.Format(time.DateOnly)
	var due []store.Channel
	for _, ch := range t.Channels {
		if (ch.DoneDay == nil || *ch.DoneDay < day) && (ch.RetryAt == nil || *ch.RetryAt <= now.Unix()) {
			due = append(due, ch)
		}
	}
	if len(due) == 0 {
		return nil
	}
	src, err := s.reminderSource(ctx, t.AccountID, today, int(t.Settings.Days), loc)
	if err != nil {
		return err
	}
	msg := remind.Message{Date: day, FirstName: t.FirstName, Email: t.Email, UserID: t.UserID,
		Days: remind.Digest(src, today, int(t.Settings.Days), loc)}
	for _, ch := range due {
		if err := s.deliverDigest(ctx, t, ch, msg, now); err != nil {
			return err
		}
	}
	return nil
}

// reminderSource reads what the account's reminders from today through
// days later are made of.
func (s *Server) reminderSource(ctx context.Context, accountID int64, today time.Time, days int, loc *time.Location) (remind.Source, error) {
	end := time.Date(today.Year(), today.Month(), today.Day()+days+1, 0, 0, 0, 0, loc)
	data, err := s.store.ReminderData(ctx, accountID, end.Unix(), remind.Spans(today, days))
	if err != nil {
		return remind.Source{}, err
	}
	src := remind.Source{Yearly: data.Yearly, Tasks: data.Tasks}
	dates, err := s.store.YearlyDates(ctx, accountID)
	if err != nil {
		return remind.Source{}, err
	}
	for _, d := range dates {
		src.Yearly = append(src.Yearly, store.Yearly{PersonID: d.PersonID, PersonName: d.Name, Kind: store.YearlyImportantDate,
			Label: d.Label, Year: d.Year, Month: int(d.Month), Day: int(d.Day)})
	}
	contacts, err := s.store.DueContacts(ctx, accountID)
	if err != nil {
		return remind.Source{}, err
	}
	for _, c := range contacts {
		dueOn, ok := c.DueOn()
		due, err := time.Parse(time.DateOnly, dueOn)
		if !ok || err != nil {
			continue
		}
		src.Contacts = append(src.Contacts, remind.Contact{PersonID: c.PersonID, Person: c.Name, EveryDays: int(c.EveryDays), Due: due})
	}
	return src, nil
}

// deliverDigest sends msg to one channel unless another server has it,
// and records the outcome. Only a crash between the channel's accepting
// and the record can repeat a digest: a missed birthday is worse.
func (s *Server) deliverDigest(ctx context.Context, t store.ReminderTarget, ch store.Channel, msg remind.Message, now time.Time) error {
	ok, err := s.store.ClaimChannel(ctx, ch.ID, msg.Date, now.Unix(), now.Add(claimFor).Unix())
	if err != nil || !ok {
		return err
	}
	if len(msg.Days) == 0 {
		return s.store.ChannelIdle(ctx, ch.ID, msg.Date)
	}
	if ch.Kind == "email" && !t.Verified {
		// No retries: the address stays unverified until its owner acts.
		s.metrics.reminder(ch.Kind, false)
		return s.store.ChannelFailed(ctx, ch.ID, msg.Date, errUnverifiedDigest.Error(), now.Unix(), now.Unix(), true)
	}
	sendErr := s.sendDigest(ctx, ch, msg, t.Verified)
	s.metrics.reminder(ch.Kind, sendErr == nil)
	if sendErr == nil {
		s.log.Info().Int64("user_id", t.UserID).Int64("channel_id", ch.ID).Str("kind", ch.Kind).
			Str("day", msg.Date).Msg("reminder digest sent")
		// The send is done: record it even if the request that started
		// the pass is going away.
		return s.store.ChannelDelivered(context.WithoutCancel(ctx), ch.ID, msg.Date, s.store.Now().Unix())
	}
	tries := int64(1)
	if ch.FailDay != nil && *ch.FailDay == msg.Date {
		tries = ch.Failures + 1
	}
	wait := retryAfter[min(int(tries)-1, len(retryAfter)-1)]
	giveUp := tries >= reminderTries
	s.log.Warn().Err(sendErr).Int64("user_id", t.UserID).Int64("channel_id", ch.ID).Str("kind", ch.Kind).
		Int64("try", tries).Bool("gave_up", giveUp).Msg("reminder digest not delivered")
	msgText := remind.Clip(sendErr.Error(), 500)
	if giveUp {
		msgText = "gave up for the day after " + strconv.FormatInt(tries, 10) + " tries: " + msgText
	}
	return s.store.ChannelFailed(context.WithoutCancel(ctx), ch.ID, msg.Date, msgText, now.Unix(), now.Add(wait).Unix(), giveUp)
}

// sendDigest delivers msg to one channel: email by the server's mailer
// (or its log), the rest by remind.Sender.
func (s *Server) sendDigest(ctx context.Context, ch store.Channel, msg remind.Message, verified bool) error {
	if ch.Kind != "email" {
		return s.notify.Send(ctx, ch, msg)
	}
	if !verified {
		return errUnverifiedDigest
	}
	text, html := msg.Mail()
	if s.mailer == nil {
		s.log.Warn().Int64("user_id", msg.UserID).Str("to", msg.Email).Str("subject", msg.Subject()).Str("digest", text).
			Msg("reminder digest (smtp.host is not set, so it is written here instead of sent)")
		return nil
	}
	return s.mailer.Send(ctx, mail.Message{To: msg.Email, Subject: msg.Subject(), Text: text, HTML: html})
}
