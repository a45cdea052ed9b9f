package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"github.com/jackc/pgx/v5"
)

// A post's version: a hash of everything its record shows, read with one narrow statement, which
// the API's cache of records checks before answering one from memory (api/post_cache.go). It
// hashes each contributing row's xmin (the transaction that wrote the row: every INSERT, UPDATE or
// DELETE changes it, and a read sees committed rows only) with the row's id — the post, each of its
// targets and the account each names, each upload link and its upload — and the organization's
// show_verbose_errors (its value: the row's other columns change often and show nothing here). A
// row that goes (a target, a link, a purged upload) leaves the hashed set. Rows changed for what
// the record does not show (a target's lease, an account's tokens) only cost a miss.
//
// It hashes exactly the rows the read of the record (post_read.go) selects, under the same joins and
// filters (live links to live uploads of the organization, a target's live account of the
// organization), so that a read computes its own version from its rows' xmins: a cold read needs
// no version statement. A row the read filters out shows nothing; one that enters or leaves the
// filter enters or leaves the hashed set.
//
// The statement answers one narrow row per contributing row (kind 0: the post, with its place in
// the page, the total, the organization's show_verbose_errors and the team's liveness; 1: a target
// and its account; 2: an upload link and its upload) and Go hashes them (versionsOf): hashing in
// SQL took one subplan per post and per kind (string_agg over each post's targets, then uploads),
// a third more of PostgreSQL's time for a page of 20 than these two index joins over the page.
//
// The read's filters on accounts and uploads are applied to the rows, not in the joins (an account's
// xmin is NULL unless the read would show it, a link the read would not show says so in column 7
// and is not hashed): in the joins, PostgreSQL read a page's accounts and links through the
// organization's indexes (all its accounts for each target, all its uploads), not by their keys.
const postVersionBranches = `
UNION ALL SELECT 1, NULL, t.post_id, NULL, t.xmin,
  CASE WHEN sa.organization_id = t.organization_id AND sa.deleted_at IS NULL THEN sa.xmin END, NULL, NULL, t.id
FROM publish_targets t LEFT JOIN social_accounts sa ON sa.id = t.social_account_id
WHERE t.organization_id = $1 AND %[1]s
UNION ALL SELECT 2, NULL, pu.post_id, NULL, pu.xmin, u.xmin, u.organization_id = $1 AND u.deleted_at IS NULL, NULL, pu.upload_id
FROM post_uploads pu LEFT JOIN uploads u ON u.id = pu.upload_id
WHERE %[2]s AND pu.deleted_at IS NULL`

// readPostVersion is one post's version rows (no kind 0 row: not the organization's post).
var readPostVersion = `-- name: ReadPostVersion
SELECT 0, 1::int8, p.id, 0::int8, p.xmin, NULL::xid, o.show_verbose_errors, true, NULL::uuid
FROM posts p JOIN organizations o ON o.id = p.organization_id
WHERE p.organization_id = $1 AND p.id = $2::uuid` +
	fmt.Sprintf(postVersionBranches, "t.post_id = $2::uuid", "pu.post_id = $2::uuid")

// ReadPostVersion answers the version of the organization's post id; ok is false when there is no
// such post (or id is not a uuid: the caller's full read answers why).
func ReadPostVersion(ctx context.Context, db DBTX, orgID, id string) (v int64, ok bool, err error) {
	u, valid := pgUUID(id)
	if !valid {
		return 0, false, nil
	}
	rows, err := db.Query(ctx, readPostVersion, orgID, u)
	if err != nil {
		return 0, false, fmt.Errorf("store: read post version: %w", err)
	}
	page, _, _, err := versionsOf(rows, 1)
	if err != nil {
		return 0, false, fmt.Errorf("store: read post version: %w", err)
	}
	if len(page) == 0 {
		return 0, false, nil
	}
	return page[0].Version, true, nil
}

// PostVersion is a post of a page with its version.
type PostVersion struct {
	ID      string
	Version int64
}

// ListPostVersions is ListPostIDs answering each post's version too, and whether the team is a
// live team of the organization, in one statement. A page without posts answers none, and live
// false: the caller reads as ListPostIDs' callers do.
func ListPostVersions(ctx context.Context, db DBTX, f PostListFilter) (page []PostVersion, total int, live bool, err error) {
	where, args := postListWhere(f)
	col, dir := postListOrder(f)
	args = append(args, f.Limit, f.Offset)
	sql := fmt.Sprintf(`WITH page AS MATERIALIZED (
  SELECT row_number() OVER (ORDER BY %[1]s %[2]s, id) AS n, id, count(*) OVER () AS total, xmin FROM posts
  WHERE %[3]s ORDER BY %[1]s %[2]s, id LIMIT $%[4]d OFFSET $%[5]d)
SELECT 0, n, id, total, xmin, NULL::xid, (SELECT show_verbose_errors FROM organizations WHERE id = $1),
  EXISTS (SELECT 1 FROM teams WHERE id = $2 AND organization_id = $1 AND deleted_at IS NULL), NULL::uuid
FROM page`, col, dir, strings.Join(where, " AND "), len(args)-1, len(args)) +
		fmt.Sprintf(postVersionBranches, "t.post_id IN (SELECT id FROM page)", "pu.post_id IN (SELECT id FROM page)")
	rows, err := db.Query(ctx, sql, args...)
	if err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	if page, total, live, err = versionsOf(rows, max(f.Limit, 1)); err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	return page, total, live, nil
}

// versionSeed seeds the versions' hash: they are compared within this process only.
var versionSeed = maphash.MakeSeed()

// versionsOf hashes the rows of a version statement into each post's version, in the page's
// order (n: how many posts are likely).
func versionsOf(rows pgx.Rows, n int) (page []PostVersion, total int, live bool, err error) {
	defer rows.Close()
	v := newVersioner(n)
	r := newRawRow(rows)
	for r.next() {
		var kind int32
		r.int32(&kind)
		if kind == 0 {
			var pn, pt int64
			var id string
			var verbose bool
			r.int64(&pn)
			raw := r.raw(r.col)
			r.str(&id)
			r.int64(&pt)
			xmin := r.raw(r.col)
			r.skipN(2)
			r.boolean(&verbose)
			r.boolean(&live)
			r.skip()
			v.post(raw, id, pn, pt, xmin, verbose)
			continue
		}
		r.skip()
		raw := r.raw(r.col)
		if shown := r.raw(r.col + 4); kind == 2 && string(shown) != "\x01" { // not a binary true
			r.skipN(7) // a link the read does not show (its upload deleted, or not the organization's)
			continue
		}
		// the row's id, its xmin, its account's or upload's
		v.row(byte(kind), raw, r.raw(r.col+6), r.raw(r.col+2), r.raw(r.col+3))
		r.skipN(7)
	}
	if err := r.Err(); err != nil {
		return nil, 0, false, err
	}
	page, total = v.versions()
	return page, total, live, nil
}

// versioner hashes posts' contributing rows into their versions, from a version statement's rows
// (versionsOf) or from the rows of the read itself (readPosts): both pass the same bytes (binary
// uuids and xids) of the same rows, so a version read alone equals the one of a read of the post
// as it was. The rows of a post's targets and links are summed, each hashed alone: their order
// does not matter, and a row that comes or goes (each has its own id) changes the sum.
type versioner struct {
	posts []versionedPost
	at    map[[16]byte]int // a post's raw id (a binary uuid: a key that costs no allocation) → its place in posts
	odd   map[string]int   // the same, for an id of another length (none is expected)
	xmins []byte           // the posts' xmins, end to end (one allocation, not one a post)
	h     maphash.Hash
}

type versionedPost struct {
	n, total   int64
	id         string
	xmin       [2]int // its xmin in xmins: start, end
	verbose    bool
	sums, rows [3]uint64
}

func newVersioner(n int) *versioner {
	v := &versioner{posts: make([]versionedPost, 0, n), at: make(map[[16]byte]int, n), xmins: make([]byte, 0, 4*n)}
	v.h.SetSeed(versionSeed)
	return v
}

func (v *versioner) of(rawID []byte) *versionedPost {
	var i int
	var seen bool
	if len(rawID) == 16 {
		k := [16]byte(rawID)
		if i, seen = v.at[k]; !seen {
			v.at[k] = len(v.posts)
		}
	} else {
		if v.odd == nil {
			v.odd = map[string]int{}
		}
		if i, seen = v.odd[string(rawID)]; !seen {
			v.odd[string(rawID)] = len(v.posts)
		}
	}
	if !seen {
		i = len(v.posts)
		v.posts = append(v.posts, versionedPost{})
	}
	return &v.posts[i]
}

// post is the post's own row (n: its place in the page), with the organization's show_verbose_errors.
func (v *versioner) post(rawID []byte, id string, n, total int64, xmin []byte, verbose bool) {
	p := v.of(rawID)
	p.n, p.total, p.id, p.verbose = n, total, id, verbose
	p.xmin = [2]int{len(v.xmins), len(v.xmins) + len(xmin)}
	v.xmins = append(v.xmins, xmin...)
}

// row is a target (kind 1: its id, its xmin, its account's) or an upload link (kind 2: its
// upload's id, its xmin, the upload's) of the post rawPostID.
func (v *versioner) row(kind byte, rawPostID, id, xmin, other []byte) {
	h := &v.h
	h.Reset()
	h.WriteByte(kind)
	writeColumn(h, id)
	writeColumn(h, xmin)
	writeColumn(h, other)
	p := v.of(rawPostID)
	p.sums[kind] += h.Sum64()
	p.rows[kind]++
}

// versions answers the posts' versions in the page's order, leaving out rows of no post read, and
// the total of the last.
func (v *versioner) versions() (page []PostVersion, total int) {
	// the page's order (the rows come in it, but nothing in SQL says a UNION keeps it)
	posts := slices.DeleteFunc(v.posts, func(p versionedPost) bool { return p.id == "" })
	slices.SortFunc(posts, func(a, b versionedPost) int { return cmp.Compare(a.n, b.n) })
	page = make([]PostVersion, 0, len(posts))
	h := &v.h
	for i := range posts {
		p := &posts[i]
		h.Reset()
		writeColumn(h, v.xmins[p.xmin[0]:p.xmin[1]:p.xmin[1]]) // never NULL: a post's xmin
		var b [1 + 4*8]byte
		if p.verbose {
			b[0] = 1
		}
		for k := 1; k < 3; k++ {
			binary.LittleEndian.PutUint64(b[1+(k-1)*16:], p.sums[k])
			binary.LittleEndian.PutUint64(b[9+(k-1)*16:], p.rows[k])
		}
		_, _ = h.Write(b[:])
		page = append(page, PostVersion{ID: p.id, Version: int64(h.Sum64())})
		total = int(p.total)
	}
	return page, total
}

// writeColumn writes a column's bytes, length first (NULL apart from empty).
func writeColumn(h *maphash.Hash, v []byte) {
	var n [4]byte
	if v != nil {
		binary.LittleEndian.PutUint32(n[:], uint32(len(v))+1)
	}
	_, _ = h.Write(n[:])
	_, _ = h.Write(v)
}
