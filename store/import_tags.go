package store

import (
	"context"
	"strings"
)

// tagsOf writes the document's tags: each into the account's tag of its
// name ignoring case (one that a prune left), which takes the document's
// spelling and times, or as a new one. A name equal ignoring case to one
// before it is that tag, as in a PUT of a person's tags: the first
// spelling and times stand.
func (im *importer) tagsOf(ctx context.Context, tags []Tag) error {
	im.tags = map[string]int64{}
	err := eachRow(ctx, im.tx, `SELECT id, name_key FROM tags WHERE account_id = ?`, []any{im.accountID}, func(sc scanner) error {
		var id int64
		var key string
		err := sc.Scan(&id, &key)
		im.tags[key] = id
		return err
	})
	if err != nil {
		return err
	}
	written := map[string]bool{}
	for _, t := range tags {
		key := FoldTag(t.Name)
		if written[key] {
			continue
		}
		written[key] = true
		if id, ok := im.tags[key]; ok {
			if err := im.exec(ctx, `UPDATE tags SET name = ?, created_at = ?, updated_at = ? WHERE id = ?`,
				t.Name, t.CreatedAt, t.UpdatedAt, id); err != nil {
				return err
			}
			im.n.Merged++
			continue
		}
		if _, err := im.newTag(ctx, t.Name, key, t.CreatedAt, t.UpdatedAt); err != nil {
			return err
		}
	}
	return nil
}

func (im *importer) newTag(ctx context.Context, name, key string, created, updated int64) (int64, error) {
	id, err := im.insert(ctx, `INSERT INTO tags (account_id, name, name_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?)
		RETURNING id`, im.accountID, name, key, created, updated)
	if err != nil {
		return 0, err
	}
	im.tags[key] = id
	im.n.Tags++
	return id, nil
}

// personTags gives the person the tags named, ignoring case; a name that
// no tag has makes one, spelled as it first comes, made now.
func (im *importer) personTags(ctx context.Context, person int64, names []string) error {
	has := map[int64]bool{}
	for _, name := range names {
		name = strings.TrimSpace(name)
		if name == "" {
			continue
		}
		key := FoldTag(name)
		id, ok := im.tags[key]
		if !ok {
			var err error
			if id, err = im.newTag(ctx, name, key, im.now, im.now); err != nil {
				return err
			}
		}
		if has[id] {
			continue
		}
		has[id] = true
		if err := im.exec(ctx, `INSERT INTO person_tags (account_id, person_id, tag_id, created_at) VALUES (?, ?, ?, ?)`,
			im.accountID, person, id, im.now); err != nil {
			return err
		}
	}
	return nil
}
