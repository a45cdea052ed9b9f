package app

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/media"
	"github.com/crier/crier/netguard"
	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

// Uploads: the media library. Bytes live in a storage.Storage (disk or S3-compatible); what an upload
// is comes from its bytes (package media); rows live in uploads, signed-URL uploads in progress in
// upload_sessions, and the posts that use an upload in post_uploads (filled by the posts capability).

// UploadOptions are the uploads' limits and settings (from the configuration).
type UploadOptions struct {
	MaxImage, MaxVideo, MaxDocument int64         // bytes, per kind
	PartSize                        int64         // multipart part size, bytes (≥ 5 MiB: S3's minimum)
	Retention                       time.Duration // unused uploads older than this are removed
	AbandonAfter                    time.Duration // unfinished signed-URL uploads older than this are removed
	AllowPrivateURLs                bool          // from-url may reach private and loopback addresses
	FetchTimeout                    time.Duration // from-url's whole request
}

// Defaults of UploadOptions (the README lists them).
const (
	DefaultMaxImage      = 20 << 20
	DefaultMaxVideo      = 4 << 30
	DefaultMaxDocument   = 100 << 20
	DefaultPartSize      = 64 << 20
	DefaultRetention     = 90 * 24 * time.Hour
	DefaultAbandonAfter  = 48 * time.Hour
	DefaultFetchTimeout  = 5 * time.Minute
	uploadURLTTL         = 6 * time.Hour
	DefaultUploadListMax = MaxPageLimit
	maxParts             = 10000
)

type uploadDeps struct {
	st    storage.Storage
	opts  UploadOptions
	fetch *http.Client
}

// newUploadDeps takes the upload storage and limits; zero limits take the defaults.
func newUploadDeps(st storage.Storage, o UploadOptions) *uploadDeps {
	def := func(v *int64, d int64) {
		if *v <= 0 {
			*v = d
		}
	}
	def(&o.MaxImage, DefaultMaxImage)
	def(&o.MaxVideo, DefaultMaxVideo)
	def(&o.MaxDocument, DefaultMaxDocument)
	def(&o.PartSize, DefaultPartSize)
	if o.Retention <= 0 {
		o.Retention = DefaultRetention
	}
	if o.AbandonAfter <= 0 {
		o.AbandonAfter = DefaultAbandonAfter
	}
	if o.FetchTimeout <= 0 {
		o.FetchTimeout = DefaultFetchTimeout
	}
	return &uploadDeps{st: st, opts: o, fetch: netguard.Client(netguard.Options{AllowPrivate: o.AllowPrivateURLs, Timeout: o.FetchTimeout})}
}

// Storage answers the upload storage.
func (s *Service) Storage() storage.Storage { return s.uploads.st }

// Upload is an upload record (the spec's Upload; Posts when asked for).
type Upload struct {
	ID             string
	OrganizationID string
	TeamID         *string
	Type           media.Kind
	Name           *string // the file's name (dashboard only: not in the API's record)
	Mime           string
	Ext            string
	Path           string
	ThumbnailPath  *string
	IconPath       *string
	ExternalLink   *string
	// Signed GET URLs, valid for storage.MaxPresignTTL.
	URL, ThumbnailURL, IconURL *string
	Width, Height              *int
	FileSize                   int64
	VideoLength                *float64
	CreatedAt, UpdatedAt       time.Time
	DeletedAt                  *time.Time
	Posts                      []UploadPostLink
}

// UploadPostLink is a post that uses an upload.
type UploadPostLink struct {
	PostID, UploadID     string
	CreatedAt, UpdatedAt time.Time
	DeletedAt            *time.Time
}

// scheduledPostsUsing answers, per upload id, the scheduled posts that use it: such uploads cannot be
// deleted. A query of post_uploads, so uploads need not call the publishing package.
func scheduledPostsUsing(ctx context.Context, q *store.Queries, orgID string, ids []string) (map[string][]string, error) {
	rows, err := q.ScheduledPostsUsing(ctx, store.ScheduledPostsUsingParams{OrganizationID: orgID, UploadIds: ids})
	if err != nil {
		return nil, err
	}
	out := map[string][]string{}
	for _, r := range rows {
		out[r.UploadID] = append(out[r.UploadID], r.PostID)
	}
	return out, nil
}

func init() {
	usageCounters[UsageUploads] = func(ctx context.Context, q *store.Queries, orgID string, since time.Time) (int, error) {
		n, err := q.CountUploadsSince(ctx, store.CountUploadsSinceParams{OrganizationID: orgID, Since: since})
		return int(n), err
	}
}

func issue(code, field, msg string) *Error {
	return Invalid("Validation failed: "+field+": "+msg, Issue{Code: code, Message: msg, Path: []any{field}})
}

func (d *uploadDeps) maxSize(k media.Kind) int64 {
	switch k {
	case media.KindImage:
		return d.opts.MaxImage
	case media.KindVideo:
		return d.opts.MaxVideo
	}
	return d.opts.MaxDocument
}

func (d *uploadDeps) checkSize(k media.Kind, size int64, field string) error {
	if max := d.maxSize(k); size > max {
		return issue(IssueTooBig, field, fmt.Sprintf("The %s is %s; %s files may be at most %s", field, humanBytes(size), k, humanBytes(max)))
	}
	return nil
}

func humanBytes(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d bytes", n)
}

func allowedList() string { return strings.Join(media.Allowed, ", ") }

// checkTeam answers nil for no team, or the team id after checking it belongs to the organization.
func (s *Service) checkTeam(ctx context.Context, q *store.Queries, orgID string, teamID *string) (*string, error) {
	if teamID == nil || strings.TrimSpace(*teamID) == "" {
		return nil, nil
	}
	ok, err := q.TeamExists(ctx, store.TeamExistsParams{ID: *teamID, OrganizationID: orgID})
	if err != nil {
		return nil, NotFoundOr(err, "Team", "app: upload team")
	}
	if !ok {
		return nil, NotFound("Team")
	}
	return teamID, nil
}

// checkQuota refuses with 403 when the organization has used its monthly uploads.
func (s *Service) checkQuota(ctx context.Context, q *store.Queries, orgID string) error {
	org, err := q.GetOrganization(ctx, orgID)
	if err != nil {
		return NotFoundOr(err, "Organization", "app: upload quota")
	}
	limit := LimitsOf(Plan(org.Plan)).MonthlyUploads
	now := s.now().UTC()
	n, err := q.CountUploadsSince(ctx, store.CountUploadsSinceParams{OrganizationID: orgID, Since: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		return fmt.Errorf("app: upload quota: %w", err)
	}
	if limit > 0 && int(n) >= limit {
		return Errorf(EForbidden, "The %s plan allows %d uploads a month and this month's are used; more can be uploaded from the first of next month (UTC)", org.Plan, limit)
	}
	return nil
}

func newKey(orgID, ext string) string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	return orgID + "/" + hex.EncodeToString(b) + "." + ext
}

// errNoObject marks prepare's refusal of a path with nothing stored yet (not a refusal of the file).
var errNoObject = errors.New("app: no object at the path")

// prepared is an upload whose bytes were checked and whose previews were stored.
type prepared struct {
	key, thumb, icon string
	name             string // the upload's name, "" for none
	info             media.Info
	size             int64
}

// prepare reads what the stored object at key is: the type from its bytes (which must agree with
// declared, when given), its size within the kind's limit, its metadata and previews. On a refusal
// the caller deletes the object.
func (s *Service) prepare(ctx context.Context, d *uploadDeps, key, declared, field string) (*prepared, error) {
	size, err := d.st.Size(ctx, key)
	if errors.Is(err, storage.ErrNotFound) {
		e := issue(IssueCustom, "path", "No file was uploaded to this path: PUT the file to the signed URL first")
		e.Err = errNoObject
		return nil, e
	}
	if err != nil {
		return nil, fmt.Errorf("app: upload: %w", err)
	}
	if size == 0 {
		return nil, issue(IssueTooSmall, field, "The file is empty")
	}
	ra := storage.NewReaderAt(ctx, d.st, key, size)
	head := make([]byte, min(size, media.SniffLen))
	if _, err := ra.ReadAt(head, 0); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("app: upload: %w", err)
	}
	mime := media.Sniff(head)
	if mime == "" {
		return nil, issue(IssueCustom, field, fmt.Sprintf("Unsupported file type (%s): the content must be one of %s", media.DescribeUnknown(head), allowedList()))
	}
	if declared != "" && !media.Agrees(declared, mime) {
		return nil, issue(IssueCustom, "mimeType", fmt.Sprintf("The file's content is %s, not the declared %s", mime, declared))
	}
	t, _ := media.TypeOf(mime)
	if err := d.checkSize(t.Kind, size, field); err != nil {
		return nil, err
	}
	info, err := media.Probe(mime, ra, size)
	if err != nil {
		return nil, issue(IssueCustom, field, fmt.Sprintf("The file looks like %s but cannot be read as one", mime))
	}
	p := &prepared{key: key, info: info, size: size}
	var thumb, icon []byte
	switch t.Kind {
	case media.KindImage:
		rc, err := d.st.GetRange(ctx, key, 0, -1)
		if err != nil {
			return nil, fmt.Errorf("app: upload: %w", err)
		}
		thumb, icon, err = media.Thumbnails(mime, rc)
		rc.Close()
		if err != nil {
			return nil, issue(IssueCustom, field, fmt.Sprintf("The file looks like %s but cannot be read as one", mime))
		}
	case media.KindVideo:
		input := ""
		if lp, ok := d.st.(interface{ LocalPath(string) (string, bool) }); ok {
			input, _ = lp.LocalPath(key)
		} else if media.HaveFFmpeg() {
			input, _ = d.st.PresignGet(ctx, key, time.Hour)
		}
		if input != "" {
			if thumb, icon, err = media.VideoThumbnail(ctx, input, info.Duration); err != nil {
				s.log.WarnContext(ctx, "video thumbnail", "key", key, "err", err)
				thumb, icon = nil, nil
			}
		}
	}
	if thumb != nil {
		base := strings.TrimSuffix(key, "."+t.Ext)
		p.thumb, p.icon = base+"_thumb.jpg", base+"_icon.jpg"
		for k, b := range map[string][]byte{p.thumb: thumb, p.icon: icon} {
			if err := d.st.Put(ctx, k, bytes.NewReader(b), int64(len(b)), media.MIMEJPEG); err != nil {
				return nil, fmt.Errorf("app: upload preview: %w", err)
			}
		}
	}
	return p, nil
}

// discard removes a refused upload's objects (best effort: the cleanup job retries nothing here,
// so failures are logged).
func (s *Service) discard(ctx context.Context, d *uploadDeps, keys ...string) {
	for _, k := range keys {
		if k == "" {
			continue
		}
		if err := d.st.Delete(context.WithoutCancel(ctx), k); err != nil {
			s.log.WarnContext(ctx, "discard upload object", "key", k, "err", err)
		}
	}
}

// record writes the upload row in tx, within the monthly quota, with its audit item.
func (s *Service) record(ctx context.Context, tx pgx.Tx, pr *Principal, teamID *string, p *prepared, externalLink *string) (store.Upload, error) {
	q := s.q.WithTx(tx)
	if err := q.LockOrganization(ctx, pr.OrganizationID); err != nil {
		return store.Upload{}, fmt.Errorf("app: upload: %w", err)
	}
	if err := s.checkQuota(ctx, q, pr.OrganizationID); err != nil {
		return store.Upload{}, err
	}
	params := store.CreateUploadParams{OrganizationID: pr.OrganizationID, TeamID: teamID, CreatedByID: nilIfEmpty(pr.UserID),
		Type: string(p.info.Kind), Mime: p.info.MIME, Ext: p.info.Ext, Path: p.key, ThumbnailPath: nilIfEmpty(p.thumb),
		IconPath: nilIfEmpty(p.icon), ExternalLink: externalLink, FileSize: p.size}
	if p.info.Width > 0 {
		params.Width = pgtype.Int4{Int32: int32(p.info.Width), Valid: true}
		params.Height = pgtype.Int4{Int32: int32(p.info.Height), Valid: true}
	}
	if p.info.Kind == media.KindVideo {
		params.VideoLength = pgtype.Float8{Float64: p.info.Duration, Valid: true}
	}
	row, err := q.CreateUpload(ctx, params)
	if err != nil {
		return store.Upload{}, fmt.Errorf("app: upload: %w", err)
	}
	if p.name != "" {
		if err := q.NameUpload(ctx, store.NameUploadParams{Name: &p.name, ID: row.ID}); err != nil {
			return store.Upload{}, fmt.Errorf("app: upload name: %w", err)
		}
		row.Name = &p.name
	}
	err = s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.created", TargetType: "upload", TargetID: row.ID,
		Metadata: map[string]any{"type": row.Type, "mime": row.Mime, "fileSize": row.FileSize}}))
	return row, err
}

func (s *Service) UploadFromRow(ctx context.Context, r store.Upload) *Upload {
	u := &Upload{ID: r.ID, OrganizationID: r.OrganizationID, TeamID: r.TeamID, Type: media.Kind(r.Type), Name: r.Name, Mime: r.Mime, Ext: r.Ext,
		Path: r.Path, ThumbnailPath: r.ThumbnailPath, IconPath: r.IconPath, ExternalLink: r.ExternalLink, FileSize: r.FileSize,
		CreatedAt: r.CreatedAt, UpdatedAt: r.UpdatedAt, DeletedAt: r.DeletedAt}
	if r.Width.Valid {
		w, h := int(r.Width.Int32), int(r.Height.Int32)
		u.Width, u.Height = &w, &h
	}
	if r.VideoLength.Valid {
		v := r.VideoLength.Float64
		u.VideoLength = &v
	}
	if r.DeletedAt == nil {
		sign := func(k *string) *string {
			if k == nil {
				return nil
			}
			url, err := s.uploads.st.PresignGet(ctx, *k, storage.MaxPresignTTL)
			if err != nil {
				s.log.WarnContext(ctx, "sign upload url", "key", *k, "err", err)
				return nil
			}
			return &url
		}
		u.URL, u.ThumbnailURL, u.IconURL = sign(&r.Path), sign(r.ThumbnailPath), sign(r.IconPath)
	}
	return u
}
