package store

import (
	"cmp"
	"context"
	"encoding/binary"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"
	"sync"

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
//
// A page's statement (ListPostVersions) reads the accounts and uploads its targets and links name
// once each (kinds 3 and 4: a page's 40 targets name two or three accounts, its links one or a
// few uploads) rather than once per row, and versionsOf joins them to the rows: the same hash,
// 40 and 20 index lookups fewer; each table is read by one index scan of an array of keys
// (= ANY(ARRAY(...)), not a lookup per key of a join: a fifth less of PostgreSQL's CPU again). There
// a target's or link's row names, in its last column, the account or upload whose row it waits
// for (versioner.pending).
const postVersionBranches = `
UNION ALL SELECT 1, NULL, t.post_id, NULL, t.xmin,
  CASE WHEN sa.organization_id = t.organization_id AND sa.deleted_at IS NULL THEN sa.xmin END, NULL, NULL, t.id, NULL::uuid
FROM publish_targets t LEFT JOIN social_accounts sa ON sa.id = t.social_account_id
WHERE t.organization_id = $1 AND t.post_id = $2::uuid
UNION ALL SELECT 2, NULL, pu.post_id, NULL, pu.xmin, u.xmin, u.organization_id = $1 AND u.deleted_at IS NULL, NULL, pu.upload_id, NULL
FROM post_uploads pu LEFT JOIN uploads u ON u.id = pu.upload_id
WHERE pu.post_id = $2::uuid AND pu.deleted_at IS NULL`

// readPostVersion is one post's version rows (no kind 0 row: not the organization's post).
var readPostVersion = `-- name: ReadPostVersion
SELECT 0, 1::int8, p.id, 0::int8, p.xmin, NULL::xid, o.show_verbose_errors, true, NULL::uuid, NULL::uuid
FROM posts p JOIN organizations o ON o.id = p.organization_id
WHERE p.organization_id = $1 AND p.id = $2::uuid` + postVersionBranches

// pageVersionBranches are the accounts and uploads a page's targets and links name, each once
// (kinds 3 and 4: its xmin when the record would show it), then those targets and links (kinds 1
// and 2, without their accounts and uploads): first, so that the rows naming them are hashed as
// they come (rows that come before what they name wait, versioner.pending).
const pageVersionBranches = `
UNION ALL SELECT 3, NULL, NULL, NULL, CASE WHEN sa.organization_id = $1 AND sa.deleted_at IS NULL THEN sa.xmin END, NULL, NULL, NULL, sa.id, NULL
FROM social_accounts sa WHERE sa.id = ANY(ARRAY(SELECT social_account_id FROM targets))
UNION ALL SELECT 4, NULL, NULL, NULL, u.xmin, NULL, u.organization_id = $1 AND u.deleted_at IS NULL, NULL, u.id, NULL
FROM uploads u WHERE u.id = ANY(ARRAY(SELECT upload_id FROM links))
UNION ALL SELECT 1, NULL, post_id, NULL, xmin, NULL, NULL, NULL, id, social_account_id FROM targets
UNION ALL SELECT 2, NULL, post_id, NULL, xmin, NULL, NULL, NULL, upload_id, upload_id FROM links`

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
	args = append(args, f.Limit, f.Offset)
	col, _ := postListOrder(f) // (a column of postOrderColumns: the shapes are few)
	shape := pageShape{status: f.Status != nil, deleted: f.Status != nil && *f.Status == "DELETED", q: f.Q != nil && *f.Q != "",
		platforms: len(f.Platforms) > 0, from: f.PostDateFrom != nil, to: f.PostDateTo != nil, order: col, desc: f.Descending}
	sql, ok := pageVersionSQL.Load(shape)
	if !ok {
		sql, _ = pageVersionSQL.LoadOrStore(shape, pageVersionStatement(f, where, len(args)))
	}
	rows, err := db.Query(ctx, sql.(string), args...)
	if err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	if page, total, live, err = versionsOf(rows, max(f.Limit, 1)); err != nil {
		return nil, 0, false, fmt.Errorf("store: list post versions: %w", err)
	}
	return page, total, live, nil
}

// pageVersionSQL keeps ListPostVersions' statement for each shape of filter (the conditions present
// and the order decide its text): building its 2 KB anew took a few µs of every list.
var pageVersionSQL sync.Map // pageShape → string

type pageShape struct {
	status, deleted, q, platforms, from, to, desc bool
	order                                         string
}

// pageVersionStatement is ListPostVersions' statement for f's shape (where: its conditions, with
// nargs arguments, the limit and offset last).
func pageVersionStatement(f PostListFilter, where []string, nargs int) string {
	col, dir := postListOrder(f)
	return fmt.Sprintf(`WITH page AS MATERIALIZED (
  SELECT row_number() OVER (ORDER BY %[1]s %[2]s, id) AS n, id, count(*) OVER () AS total, xmin FROM posts
  WHERE %[3]s ORDER BY %[1]s %[2]s, id LIMIT $%[4]d OFFSET $%[5]d),
targets AS MATERIALIZED (SELECT post_id, xmin, id, social_account_id FROM publish_targets
  WHERE organization_id = $1 AND post_id = ANY(ARRAY(SELECT id FROM page))),
links AS MATERIALIZED (SELECT post_id, xmin, upload_id FROM post_uploads WHERE post_id = ANY(ARRAY(SELECT id FROM page)) AND deleted_at IS NULL)
SELECT 0, n, id, total, xmin, NULL::xid, (SELECT show_verbose_errors FROM organizations WHERE id = $1),
  EXISTS (SELECT 1 FROM teams WHERE id = $2 AND organization_id = $1 AND deleted_at IS NULL), NULL::uuid, NULL::uuid
FROM page`, col, dir, strings.Join(where, " AND "), nargs-1, nargs) + pageVersionBranches
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
		switch kind {
		case 0:
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
			r.skipN(2)
			v.post(raw, id, pn, pt, xmin, verbose)
			continue
		case 3, 4: // an account or upload a page's rows name: its id, xmin, whether shown (uploads)
			v.named(byte(kind), r.raw(8), r.raw(4), string(r.raw(6)) == "\x01")
		default: // a target or a link: its post, id, xmin, its account's or upload's (or, col 9, its id to join)
			if ref := r.raw(9); ref != nil {
				v.pending(byte(kind), r.raw(2), r.raw(8), r.raw(4), ref)
			} else if kind == 1 || string(r.raw(6)) == "\x01" { // (a link the read does not show is not hashed)
				v.row(byte(kind), r.raw(2), r.raw(8), r.raw(4), r.raw(5))
			}
		}
		r.skipN(9)
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
	// a page's rows whose account or upload comes in a row of its own (kinds 3 and 4), joined in versions
	waiting []waitingRow
	kept    []byte                 // their bytes, end to end
	names   [2]map[string]namedRow // an account's (kind 3), an upload's (kind 4) id → its row
}

type versionedPost struct {
	n, total   int64
	id         string
	xmin       [2]int // its xmin in xmins: start, end
	verbose    bool
	sums, rows [3]uint64
}

type waitingRow struct {
	kind          byte
	post          int32
	id, xmin, ref span
}

type namedRow struct {
	xmin  span
	shown bool
}

// span is bytes in versioner.kept (start < 0: NULL).
type span [2]int32

func newVersioner(n int) *versioner {
	v := &versioner{posts: make([]versionedPost, 0, n), at: make(map[[16]byte]int, n), xmins: make([]byte, 0, 4*n)}
	v.h.SetSeed(versionSeed)
	return v
}

func (v *versioner) of(rawID []byte) *versionedPost { return &v.posts[v.index(rawID)] }

func (v *versioner) index(rawID []byte) int {
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
	return i
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
	v.add(v.of(rawPostID), kind, id, xmin, other)
}

func (v *versioner) add(p *versionedPost, kind byte, id, xmin, other []byte) {
	h := &v.h
	h.Reset()
	h.WriteByte(kind)
	writeColumn(h, id)
	writeColumn(h, xmin)
	writeColumn(h, other)
	p.sums[kind] += h.Sum64()
	p.rows[kind]++
}

// pending is row whose account's or upload's xmin is that of the kind 3 or 4 row of id ref: hashed
// now when that row came first (as the statement asks), else when all have come.
func (v *versioner) pending(kind byte, rawPostID, id, xmin, ref []byte) {
	if named, ok := v.names[kind-1][string(ref)]; ok {
		if kind == 1 || named.shown {
			v.add(v.of(rawPostID), kind, id, xmin, v.bytes(named.xmin))
		}
		return
	}
	if v.waiting == nil { // (rare: the statement sends what rows name before them)
		v.waiting = make([]waitingRow, 0, 3*max(cap(v.posts), 1))
	}
	v.waiting = append(v.waiting, waitingRow{kind: kind, post: int32(v.index(rawPostID)), id: v.keep(id), xmin: v.keep(xmin), ref: v.keep(ref)})
}

// named is an account (kind 3: its xmin, NULL when the record would not show it) or an upload
// (kind 4: its xmin, and whether the record shows it).
func (v *versioner) named(kind byte, id, xmin []byte, shown bool) {
	m := &v.names[kind-3]
	if *m == nil {
		*m = make(map[string]namedRow, 4)
	}
	(*m)[string(id)] = namedRow{xmin: v.keep(xmin), shown: shown}
}

func (v *versioner) keep(b []byte) span {
	if b == nil {
		return span{-1, -1}
	}
	start := len(v.kept)
	v.kept = append(v.kept, b...)
	return span{int32(start), int32(len(v.kept))}
}

func (v *versioner) bytes(s span) []byte {
	if s[0] < 0 {
		return nil
	}
	return v.kept[s[0]:s[1]:s[1]]
}

// versions answers the posts' versions in the page's order, leaving out rows of no post read, and
// the total of the last.
func (v *versioner) versions() (page []PostVersion, total int) {
	for _, w := range v.waiting { // a target's account (NULL when gone), a link's upload (not hashed unless shown)
		named, ok := v.names[w.kind-1][string(v.bytes(w.ref))]
		if w.kind == 2 && (!ok || !named.shown) {
			continue
		}
		other := span{-1, -1}
		if ok {
			other = named.xmin
		}
		v.add(&v.posts[w.post], w.kind, v.bytes(w.id), v.bytes(w.xmin), v.bytes(other))
	}
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
