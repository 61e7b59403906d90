package store

import (
	"context"
	"slices"
	"strings"
)

// write adds the incoming person to the person it matched, or makes it.
func (pi *peopleImporter) write(ctx context.Context, in *IncomingPerson, p *importedPerson) error {
	gender, err := pi.gender(ctx, in.GenderName, p)
	if err != nil {
		return err
	}
	if p.id == 0 {
		if err := pi.insertPerson(ctx, in, gender, p); err != nil {
			return err
		}
	} else if err := pi.fill(ctx, in, gender, p); err != nil {
		return err
	}
	if in.Key != "" {
		pi.byKey[in.Key] = p
	}
	add := pi.missing(in, p)
	if err := pi.children(ctx, p.id, &add); err != nil {
		return err
	}
	// The card changed when the person was made or their row written,
	// or when they gained what their card holds.
	card := p.created || p.added || len(add.ContactDetails)+len(add.ImportantDates)+len(add.Notes)+len(add.WorkHistory) > 0 ||
		add.Photo != nil
	if hasRows(&add) {
		p.added = true
	}
	tagged, err := pi.addTags(ctx, p, in.Tags)
	p.added = p.added || tagged
	if card || tagged {
		pi.bulk.touch(p.id)
	}
	return err
}

// gender is the account's gender named name, ignoring case, made when
// none has it and the person takes it; nil for none.
func (pi *peopleImporter) gender(ctx context.Context, name string, p *importedPerson) (*int64, error) {
	name = strings.TrimSpace(name)
	if name == "" || p.has["gender_id"] {
		return nil, nil
	}
	key := foldCase(name)
	if id, ok := pi.genders[key]; ok {
		return &id, nil
	}
	// As POST /api/administration/genders makes one: last.
	id, err := pi.insert(ctx, `INSERT INTO genders (account_id, name, position, created_at, updated_at)
		SELECT CAST(? AS BIGINT), CAST(? AS TEXT), coalesce(max(position), 0) + 1, CAST(? AS BIGINT), CAST(? AS BIGINT)
		FROM genders WHERE account_id = ? RETURNING id`, pi.accountID, name, pi.now, pi.now, pi.accountID)
	if err != nil {
		return nil, err
	}
	pi.genders[key] = id
	pi.n.Genders++
	return &id, nil
}

func (pi *peopleImporter) loadGenders(ctx context.Context) error {
	return eachRow(ctx, pi.tx, `SELECT id, name FROM genders WHERE account_id = ? ORDER BY id`, []any{pi.accountID},
		func(sc scanner) error {
			var id int64
			var name string
			err := sc.Scan(&id, &name)
			if _, ok := pi.genders[foldCase(name)]; !ok && err == nil {
				pi.genders[foldCase(name)] = id
			}
			return err
		})
}

// insertPerson makes the person in.
func (pi *peopleImporter) insertPerson(ctx context.Context, in *IncomingPerson, gender *int64, p *importedPerson) error {
	var uid *string
	if pi.in.Source == SourceMonica {
		uid = in.UID
	}
	marital, kids := in.MaritalStatus, in.KidsStatus
	if marital == "" {
		marital = "unknown"
	}
	if kids == "" {
		kids = "unknown"
	}
	a := in.Age
	created, updated := pi.times(in.CreatedAt, in.UpdatedAt)
	args := []any{pi.accountID, uid, nil, strings.TrimSpace(in.FirstName), nonEmpty(in.LastName), nonEmpty(in.MiddleName),
		nonEmpty(in.Nickname), nonEmpty(in.MaidenName), nonEmpty(in.Prefix), nonEmpty(in.Suffix), nonEmpty(in.HowWeMet),
		marital, kids, gender, true, !in.Unlisted,
		a.Type, a.Year, a.Month, a.Day, a.Estimated, a.EstimatedAt, a.Bracket, a.YearlyReminder}
	for range AppearanceFields {
		args = append(args, nil)
	}
	id, err := pi.insert(ctx, insertPerson, append(args, created, updated)...)
	if err != nil {
		return err
	}
	p.id = id
	pi.bulk.made(id)
	pi.touched[id] = p
	for i, v := range []*string{in.LastName, in.MiddleName, in.Nickname, in.MaidenName, in.Prefix, in.Suffix, in.HowWeMet} {
		p.has[personFillable[i]] = nonEmpty(v) != nil
	}
	p.has["gender_id"] = gender != nil
	p.has["age_type"] = a.Type != nil
	return nil
}

// times are a row's created and updated times, the import's where 0.
func (pi *peopleImporter) times(created, updated int64) (int64, int64) {
	if created == 0 {
		created = pi.now
	}
	if updated == 0 {
		updated = max(created, pi.now)
	}
	return created, updated
}

// fill sets the matched person's fields that they have none of.
func (pi *peopleImporter) fill(ctx context.Context, in *IncomingPerson, gender *int64, p *importedPerson) error {
	values := []*string{in.LastName, in.MiddleName, in.Nickname, in.MaidenName, in.Prefix, in.Suffix, in.HowWeMet}
	args := make([]any, 0, len(values)+3)
	changed := false
	for i, v := range values {
		col := personFillable[i]
		if v = nonEmpty(v); v != nil && !p.has[col] {
			p.has[col], changed = true, true
			args = append(args, *v)
		} else {
			args = append(args, nil)
		}
	}
	if gender != nil {
		p.has["gender_id"], changed = true, true
	}
	if changed {
		if err := pi.exec(ctx, `UPDATE persons SET last_name = coalesce(?, last_name), middle_name = coalesce(?, middle_name),
			nickname = coalesce(?, nickname), maiden_name = coalesce(?, maiden_name), prefix = coalesce(?, prefix),
			suffix = coalesce(?, suffix), how_we_met = coalesce(?, how_we_met), gender_id = coalesce(?, gender_id),
			updated_at = ? WHERE id = ?`, append(args, gender, pi.now, p.id)...); err != nil {
			return err
		}
		p.added = true
	}
	if a := in.Age; a.Type != nil && !p.has["age_type"] {
		if err := pi.exec(ctx, `UPDATE persons SET age_type = ?, age_year = ?, age_month = ?, age_day = ?, estimated_age = ?,
			estimated_at = ?, age_bracket = ?, yearly_reminder = ?, updated_at = ? WHERE id = ? AND age_type IS NULL`,
			a.Type, a.Year, a.Month, a.Day, a.Estimated, a.EstimatedAt, a.Bracket, a.YearlyReminder, pi.now, p.id); err != nil {
			return err
		}
		p.has["age_type"], p.added = true, true
	}
	return nil
}

// missing is what of in the person lacks, by §3's rules of sameness; it
// counts it in as the person's.
func (pi *peopleImporter) missing(in *IncomingPerson, p *importedPerson) PersonRecord {
	var add PersonRecord
	isNew := func(key string) bool {
		if p.rows[key] {
			return false
		}
		p.rows[key] = true
		return true
	}
	full := false
	for _, d := range in.ContactDetails {
		if !isNew(detailKey(d.Kind, d.Value, d.Network, d.Street, d.City, d.PostalCode, d.Region, d.Country)) {
			continue
		}
		if p.details >= MaxContactDetails {
			if !full && pi.in.Problem != nil {
				pi.in.Problem(in, "contact_details", MsgTooManyDetails)
			}
			full = true
			continue
		}
		p.details++
		p.positions[d.Kind]++
		d.Position = p.positions[d.Kind]
		d.CreatedAt, d.UpdatedAt = pi.times(d.CreatedAt, d.UpdatedAt)
		add.ContactDetails = append(add.ContactDetails, d)
	}
	for _, d := range in.ImportantDates {
		if isNew(dateKey(d.Label, d.Year, d.Month, d.Day)) {
			d.CreatedAt, d.UpdatedAt = pi.times(d.CreatedAt, d.UpdatedAt)
			add.ImportantDates = append(add.ImportantDates, d)
		}
	}
	for _, n := range in.Notes {
		if isNew(noteKey(n.Content)) {
			n.CreatedAt, n.UpdatedAt = pi.times(n.CreatedAt, n.UpdatedAt)
			add.Notes = append(add.Notes, n)
		}
	}
	for _, g := range in.Gifts {
		if isNew(giftKey(g.Name, g.GiftedAt)) {
			g.CreatedAt, g.UpdatedAt = pi.times(g.CreatedAt, g.UpdatedAt)
			add.Gifts = append(add.Gifts, g)
		}
	}
	for _, ev := range in.LifeEvents {
		if isNew(lifeEventKey(ev.Description, ev.HappenedAt)) {
			ev.CreatedAt, ev.UpdatedAt = pi.times(ev.CreatedAt, ev.UpdatedAt)
			add.LifeEvents = append(add.LifeEvents, ev)
		}
	}
	for _, w := range in.WorkHistory {
		if isNew(workKey(w.JobTitle, w.CompanyName)) {
			// One active job a person: a match that has one keeps it.
			w.Active = w.Active && !p.has["active_job"]
			p.has["active_job"] = p.has["active_job"] || w.Active
			w.CreatedAt, w.UpdatedAt = pi.times(w.CreatedAt, w.UpdatedAt)
			add.WorkHistory = append(add.WorkHistory, w)
		}
	}
	for _, t := range in.Tasks {
		if isNew(taskKey(t.Name, t.DueAt)) {
			t.Category = nil
			t.CreatedAt, t.UpdatedAt = pi.times(t.CreatedAt, t.UpdatedAt)
			add.Tasks = append(add.Tasks, t)
		}
	}
	for _, it := range in.Interactions {
		if isNew(interactionKey(it.Kind, it.HappenedOn, it.Note)) {
			it.CreatedAt, it.UpdatedAt = pi.times(it.CreatedAt, it.UpdatedAt)
			add.Interactions = append(add.Interactions, it)
		}
	}
	if in.Photo != nil && !p.has["photo"] {
		p.has["photo"] = true
		add.Photo = in.Photo
	}
	if in.StayInTouch != nil && !p.has["stay_in_touch"] {
		p.has["stay_in_touch"] = true
		c := *in.StayInTouch
		c.CreatedAt, c.UpdatedAt = pi.times(c.CreatedAt, c.UpdatedAt)
		add.StayInTouch = &c
	}
	return add
}

// hasRows reports whether rec has a row to write.
func hasRows(rec *PersonRecord) bool {
	return len(rec.ContactDetails)+len(rec.ImportantDates)+len(rec.Notes)+len(rec.Gifts)+len(rec.LifeEvents)+
		len(rec.WorkHistory)+len(rec.Tasks)+len(rec.Interactions) > 0 || rec.Photo != nil || rec.StayInTouch != nil
}

// addTags gives the person the tags named that they lack, ignoring case,
// making those the account lacks; it reports whether it gave any.
func (pi *peopleImporter) addTags(ctx context.Context, p *importedPerson, names []string) (bool, error) {
	gave := false
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		key := FoldTag(name)
		id, ok := pi.tags[key]
		if !ok {
			var err error
			if id, err = pi.newTag(ctx, name, key, pi.now, pi.now); err != nil {
				return gave, err
			}
		}
		if p.tags[id] {
			continue
		}
		p.tags[id] = true
		if err := pi.exec(ctx, `INSERT INTO person_tags (account_id, person_id, tag_id, created_at) VALUES (?, ?, ?, ?)`,
			pi.accountID, p.id, id, pi.now); err != nil {
			return gave, err
		}
		gave = true
	}
	return gave, nil
}

// relationships makes the file's relationships that the pairs lack.
func (pi *peopleImporter) relationships(ctx context.Context) error {
	if len(pi.in.Relationships) == 0 {
		return nil
	}
	types := map[string]int64{}
	err := eachRow(ctx, pi.tx, `SELECT id, name FROM relationship_types WHERE account_id = ? ORDER BY id`, []any{pi.accountID},
		func(sc scanner) error {
			var id int64
			var name string
			err := sc.Scan(&id, &name)
			if _, ok := types[foldCase(name)]; !ok {
				types[foldCase(name)] = id
			}
			return err
		})
	if err != nil {
		return err
	}
	type pair struct{ typeID, a, b int64 }
	have := map[pair]bool{}
	err = eachRow(ctx, pi.tx, `SELECT relationship_type_id, person_id, other_person_id FROM relationships WHERE account_id = ?`,
		[]any{pi.accountID}, func(sc scanner) error {
			var t, a, b int64
			err := sc.Scan(&t, &a, &b)
			have[pair{t, min(a, b), max(a, b)}] = true
			return err
		})
	if err != nil {
		return err
	}
	for _, rel := range pi.in.Relationships {
		from, to := pi.byKey[rel.FromKey], pi.byKey[rel.ToKey]
		if from == nil || to == nil || from.id == to.id {
			continue
		}
		key := foldCase(strings.TrimSpace(rel.Type.Name))
		typeID, ok := types[key]
		if !ok {
			group := rel.Type.Group
			if !slices.Contains(RelationshipGroups, group) {
				group = "other"
			}
			reverse := rel.Type.NameReverse
			if reverse == "" {
				reverse = rel.Type.Name
			}
			if typeID, err = pi.insert(ctx, `INSERT INTO relationship_types (account_id, name, name_reverse, group_name,
				created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?) RETURNING id`,
				pi.accountID, strings.TrimSpace(rel.Type.Name), reverse, group, pi.now, pi.now); err != nil {
				return err
			}
			types[key] = typeID
			pi.n.RelationshipTypes++
		}
		pr := pair{typeID, min(from.id, to.id), max(from.id, to.id)}
		if have[pr] {
			continue
		}
		have[pr] = true
		if err := pi.exec(ctx, `INSERT INTO relationships (account_id, relationship_type_id, person_id, other_person_id,
			created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`, pi.accountID, typeID, from.id, to.id, pi.now, pi.now); err != nil {
			return err
		}
		pi.n.Relationships++
		from.added, to.added = true, true
	}
	return nil
}

// journal writes the entries into the journal of their name.
func (pi *peopleImporter) journal(ctx context.Context) error {
	if len(pi.in.JournalEntries) == 0 {
		return nil
	}
	var id int64
	err := eachRow(ctx, pi.tx, `SELECT id FROM journals WHERE account_id = ? AND name = ? ORDER BY id LIMIT 1`,
		[]any{pi.accountID, pi.in.Journal}, func(sc scanner) error { return sc.Scan(&id) })
	if err != nil {
		return err
	}
	if id == 0 {
		if id, err = pi.insert(ctx, `INSERT INTO journals (account_id, name, slug, created_at, updated_at)
			VALUES (?, ?, '', ?, ?) RETURNING id`, pi.accountID, pi.in.Journal, pi.now, pi.now); err != nil {
			return err
		}
		if err := pi.exec(ctx, `UPDATE journals SET slug = ? WHERE id = ?`, JournalSlug(id, pi.in.Journal), id); err != nil {
			return err
		}
		pi.n.Journals++
	}
	for _, en := range pi.in.JournalEntries {
		created, updated := pi.times(en.CreatedAt, en.UpdatedAt)
		res, err := pi.execResult(ctx, `INSERT INTO journal_entries (account_id, journal_id, year, month, day, body, body_folded,
				created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (journal_id, year, month, day) DO NOTHING`,
			pi.accountID, id, en.Year, en.Month, en.Day, en.Body, foldCase(en.Body), created, updated)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err == nil {
			pi.n.JournalEntries += int(n)
		}
	}
	return nil
}
