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
	"os"
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
// deleted. Seam: the posts capability replaces it; until then no post exists.
var scheduledPostsUsing = func(_ context.Context, _ *store.Queries, _ string, _ []string) (map[string][]string, error) {
	return nil, nil
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
		return nil, notFoundOr(err, "Team", "app: upload team")
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
		return notFoundOr(err, "Organization", "app: upload quota")
	}
	limit := LimitsOf(Plan(org.Plan)).MonthlyUploads
	now := s.now().UTC()
	n, err := q.CountUploadsSince(ctx, store.CountUploadsSinceParams{OrganizationID: orgID, Since: time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		return fmt.Errorf("app: upload quota: %w", err)
	}
	if limit > 0 && int(n) >= limit {
		return Errorf(EForbidden, "The %s plan allows %d uploads a month and this month's are used; upgrade or wait for next month", org.Plan, limit)
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
	err = s.audit(ctx, tx, auditBy(pr, auditItem{Action: "upload.created", TargetType: "upload", TargetID: row.ID,
		Metadata: map[string]any{"type": row.Type, "mime": row.Mime, "fileSize": row.FileSize}}))
	return row, err
}

// CreateUpload stores a file sent in the request (POST /upload). declared is the part's
// Content-Type: checked against the bytes only when it names one of the allowed types.
func (s *Service) CreateUpload(ctx context.Context, teamID *string, r io.ReadSeeker, size int64, declared string) (*Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if teamID, err = s.checkTeam(ctx, s.q, pr.OrganizationID, teamID); err != nil {
		return nil, err
	}
	if err := s.checkQuota(ctx, s.q, pr.OrganizationID); err != nil {
		return nil, err
	}
	if !media.IsAllowed(declared) {
		declared = ""
	}
	return s.storeAndRecord(ctx, d, pr, teamID, r, size, declared, "file", nil)
}

// storeAndRecord puts r (sniffed first, so refused types never reach storage) and records it.
func (s *Service) storeAndRecord(ctx context.Context, d *uploadDeps, pr *Principal, teamID *string, r io.ReadSeeker, size int64, declared, field string, externalLink *string) (*Upload, error) {
	head := make([]byte, media.SniffLen)
	n, err := io.ReadFull(r, head)
	if err != nil && !errors.Is(err, io.ErrUnexpectedEOF) && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("app: upload: %w", err)
	}
	head = head[:n]
	if _, err := r.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("app: upload: %w", err)
	}
	mime := media.Sniff(head)
	if mime == "" {
		if len(head) == 0 {
			return nil, issue(IssueTooSmall, field, "The file is empty")
		}
		return nil, issue(IssueCustom, field, fmt.Sprintf("Unsupported file type (%s): the content must be one of %s", media.DescribeUnknown(head), allowedList()))
	}
	t, _ := media.TypeOf(mime)
	if size >= 0 {
		if err := d.checkSize(t.Kind, size, field); err != nil {
			return nil, err
		}
	}
	key := newKey(pr.OrganizationID, t.Ext)
	if err := d.st.Put(ctx, key, r, size, mime); err != nil {
		return nil, fmt.Errorf("app: upload: %w", err)
	}
	p, err := s.prepare(ctx, d, key, declared, field)
	if err != nil {
		s.discard(ctx, d, key)
		return nil, err
	}
	var row store.Upload
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err = s.record(ctx, tx, pr, teamID, p, externalLink)
		return err
	})
	if err != nil {
		s.discard(ctx, d, p.key, p.thumb, p.icon)
		return nil, err
	}
	return s.uploadFromRow(ctx, row), nil
}

// CreateUploadFromURL fetches a public URL (SSRF-safe: see netguard) and stores it as an upload.
func (s *Service) CreateUploadFromURL(ctx context.Context, teamID *string, rawURL string) (*Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if teamID, err = s.checkTeam(ctx, s.q, pr.OrganizationID, teamID); err != nil {
		return nil, err
	}
	if err := s.checkQuota(ctx, s.q, pr.OrganizationID); err != nil {
		return nil, err
	}
	limit := max(d.opts.MaxImage, d.opts.MaxVideo, d.opts.MaxDocument)
	body, _, err := netguard.Get(ctx, d.fetch, rawURL, limit, d.opts.AllowPrivateURLs)
	if err != nil {
		return nil, fetchError(err, limit)
	}
	defer body.Close()
	// Spool to a temporary file: the size must be known before storing, and a slow source must not
	// hold a storage request open.
	tmp, err := os.CreateTemp("", "crier-fetch-*")
	if err != nil {
		return nil, fmt.Errorf("app: from-url: %w", err)
	}
	defer os.Remove(tmp.Name()) //nolint:errcheck
	defer tmp.Close()
	n, err := io.Copy(tmp, body)
	if err != nil {
		return nil, fetchError(err, limit)
	}
	if _, err := tmp.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("app: from-url: %w", err)
	}
	return s.storeAndRecord(ctx, d, pr, teamID, tmp, n, "", "url", &rawURL)
}

func fetchError(err error, max int64) error {
	var blocked *netguard.BlockedError
	switch {
	case errors.As(err, &blocked):
		return issue(IssueCustom, "url", "The URL cannot be fetched: "+strings.TrimPrefix(blocked.Error(), "netguard: "))
	case errors.Is(err, netguard.ErrTooLarge):
		return issue(IssueTooBig, "url", "The file at the URL is larger than "+humanBytes(max))
	}
	return &Error{Code: EInvalid, Message: "Validation failed: url: The URL could not be fetched",
		Issues: []Issue{{Code: IssueCustom, Message: "The URL could not be fetched: " + fetchReason(err), Path: []any{"url"}}}, Err: err}
}

func fetchReason(err error) string {
	msg := err.Error()
	if i := strings.LastIndex(msg, ": "); i >= 0 && strings.HasPrefix(msg, "Get ") {
		return msg[i+2:]
	}
	return strings.TrimPrefix(msg, "netguard: ")
}

// SignedUpload is where to PUT a file (POST /upload/init).
type SignedUpload struct {
	URL, Path string
}

func (s *Service) initChecks(ctx context.Context, d *uploadDeps, pr *Principal, teamID *string, mime string, fileSize *int64) (*string, media.Type, error) {
	t, ok := media.TypeOf(mime)
	if !ok {
		return nil, t, Invalid("Validation failed: mimeType: Invalid enum value. Expected "+allowedList(),
			Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected " + allowedList(), Path: []any{"mimeType"}})
	}
	if fileSize != nil {
		if *fileSize < 1 {
			return nil, t, issue(IssueTooSmall, "fileSize", "Number must be greater than or equal to 1")
		}
		if err := d.checkSize(t.Kind, *fileSize, "fileSize"); err != nil {
			return nil, t, err
		}
	}
	teamID, err := s.checkTeam(ctx, s.q, pr.OrganizationID, teamID)
	if err != nil {
		return nil, t, err
	}
	return teamID, t, s.checkQuota(ctx, s.q, pr.OrganizationID)
}

// InitUpload reserves a path and answers a signed URL for one PUT of the file (POST /upload/init).
func (s *Service) InitUpload(ctx context.Context, teamID *string, mime string, fileSize *int64) (*SignedUpload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	teamID, t, err := s.initChecks(ctx, d, pr, teamID, mime, fileSize)
	if err != nil {
		return nil, err
	}
	key := newKey(pr.OrganizationID, t.Ext)
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		params := store.CreateUploadSessionParams{OrganizationID: pr.OrganizationID, TeamID: teamID, CreatedByID: nilIfEmpty(pr.UserID), Path: key, DeclaredMime: mime}
		if fileSize != nil {
			params.FileSize = pgtype.Int8{Int64: *fileSize, Valid: true}
		}
		if _, err := s.q.WithTx(tx).CreateUploadSession(ctx, params); err != nil {
			return fmt.Errorf("app: upload init: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "upload.started", TargetType: "upload_session", TargetID: key, Metadata: map[string]any{"mimeType": mime}}))
	})
	if err != nil {
		return nil, err
	}
	u, err := d.st.PresignPut(ctx, key, uploadURLTTL)
	if err != nil {
		return nil, fmt.Errorf("app: upload init: %w", err)
	}
	return &SignedUpload{URL: u, Path: key}, nil
}

// session locks the organization's upload session at path, in tx.
func (s *Service) session(ctx context.Context, tx pgx.Tx, orgID, path string) (store.UploadSession, error) {
	sess, err := s.q.WithTx(tx).GetUploadSession(ctx, store.GetUploadSessionParams{Path: path, OrganizationID: orgID})
	if err != nil {
		return sess, notFoundOr(err, "Upload", "app: upload session")
	}
	return sess, nil
}

// finishSession turns a session whose bytes are in storage into an upload: the same upload again
// for a session already finished; refusals delete the bytes and close the session.
func (s *Service) finishSession(ctx context.Context, pr *Principal, teamID *string, path, uploadID string, multipart bool,
	assemble func(d *uploadDeps, sess store.UploadSession) error) (*Upload, error) {
	d := s.uploads
	var out store.Upload
	var refused *store.UploadSession
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		sess, err := s.session(ctx, tx, pr.OrganizationID, path)
		if err != nil {
			return err
		}
		if multipart != (sess.MultipartID != nil) || (multipart && *sess.MultipartID != uploadID) {
			if multipart {
				return NotFound("Multipart upload")
			}
			return issue(IssueCustom, "path", "This path belongs to a multipart upload: complete it with /upload/multipart/complete")
		}
		if sess.UploadID != nil { // done before: answer the same upload
			if out, err = q.GetUpload(ctx, store.GetUploadParams{ID: *sess.UploadID, OrganizationID: pr.OrganizationID}); err != nil {
				return notFoundOr(err, "Upload", "app: upload finish")
			}
			return nil
		}
		if sess.AbortedAt != nil {
			return issue(IssueCustom, "path", "This upload was aborted or refused; start a new one")
		}
		team := sess.TeamID
		if teamID != nil && *teamID != "" {
			if team, err = s.checkTeam(ctx, q, pr.OrganizationID, teamID); err != nil {
				return err
			}
		}
		// Quota before assembly: a 403 leaves the parts in place.
		if err := s.checkQuota(ctx, q, pr.OrganizationID); err != nil {
			return err
		}
		if assemble != nil {
			if err := assemble(d, sess); err != nil {
				return err
			}
		}
		p, err := s.prepare(ctx, d, sess.Path, sess.DeclaredMime, "file")
		if err != nil {
			if ErrorCode(err) == EInvalid && !errors.Is(err, errNoObject) {
				refused = &sess
			}
			return err
		}
		out, err = s.record(ctx, tx, pr, team, p, nil)
		if err != nil {
			s.discard(ctx, d, p.thumb, p.icon)
			return err
		}
		return q.CompleteUploadSession(ctx, store.CompleteUploadSessionParams{ID: sess.ID, UploadID: &out.ID})
	})
	if refused != nil {
		// The file itself was refused: its bytes go, and the session is closed for good.
		s.discard(ctx, d, refused.Path)
		if aerr := s.q.AbortUploadSession(context.WithoutCancel(ctx), refused.ID); aerr != nil {
			s.log.WarnContext(ctx, "close refused upload session", "path", refused.Path, "err", aerr)
		}
	}
	if err != nil {
		return nil, err
	}
	return s.uploadFromRow(ctx, out), nil
}

// FinalizeUpload turns the file PUT to an init URL into an upload (POST /upload/finalize).
func (s *Service) FinalizeUpload(ctx context.Context, teamID *string, path string) (*Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	return s.finishSession(ctx, pr, teamID, path, "", false, nil)
}

// PartURL is a signed URL for one part.
type PartURL struct {
	PartNumber int
	URL        string
}

// MultipartUpload is a started multipart upload (POST /upload/multipart/init).
type MultipartUpload struct {
	UploadID, Path string
	PartSize       int64
	Parts          []PartURL
}

// InitMultipartUpload starts a multipart upload and signs a URL for every part.
func (s *Service) InitMultipartUpload(ctx context.Context, teamID *string, mime string, fileSize int64) (*MultipartUpload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	teamID, t, err := s.initChecks(ctx, d, pr, teamID, mime, &fileSize)
	if err != nil {
		return nil, err
	}
	partSize := d.opts.PartSize
	if (fileSize+partSize-1)/partSize > maxParts {
		partSize = ((fileSize+maxParts-1)/maxParts + (1<<20 - 1)) / (1 << 20) * (1 << 20)
	}
	n := int((fileSize + partSize - 1) / partSize)
	key := newKey(pr.OrganizationID, t.Ext)
	mid, err := d.st.CreateMultipart(ctx, key, t.MIME)
	if err != nil {
		return nil, fmt.Errorf("app: multipart init: %w", err)
	}
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		_, err := s.q.WithTx(tx).CreateUploadSession(ctx, store.CreateUploadSessionParams{OrganizationID: pr.OrganizationID, TeamID: teamID,
			CreatedByID: nilIfEmpty(pr.UserID), Path: key, DeclaredMime: mime, FileSize: pgtype.Int8{Int64: fileSize, Valid: true},
			MultipartID: &mid, PartSize: pgtype.Int8{Int64: partSize, Valid: true}})
		if err != nil {
			return fmt.Errorf("app: multipart init: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "upload.started", TargetType: "upload_session", TargetID: key,
			Metadata: map[string]any{"mimeType": mime, "fileSize": fileSize, "parts": n}}))
	})
	if err != nil {
		_ = d.st.AbortMultipart(context.WithoutCancel(ctx), key, mid)
		return nil, err
	}
	out := &MultipartUpload{UploadID: mid, Path: key, PartSize: partSize, Parts: make([]PartURL, 0, n)}
	for i := 1; i <= n; i++ {
		u, err := d.st.PresignPart(ctx, key, mid, i, uploadURLTTL)
		if err != nil {
			return nil, fmt.Errorf("app: multipart init: %w", err)
		}
		out.Parts = append(out.Parts, PartURL{PartNumber: i, URL: u})
	}
	return out, nil
}

// openMultipart finds the organization's open multipart upload.
func (s *Service) openMultipart(ctx context.Context, orgID, path, uploadID string) (store.UploadSession, error) {
	var sess store.UploadSession
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		var err error
		sess, err = s.session(ctx, tx, orgID, path)
		return err
	})
	if err != nil {
		return sess, err
	}
	if sess.MultipartID == nil || *sess.MultipartID != uploadID {
		return sess, NotFound("Multipart upload")
	}
	if sess.CompletedAt != nil || sess.AbortedAt != nil {
		return sess, issue(IssueCustom, "uploadId", "This multipart upload is already completed or aborted")
	}
	return sess, nil
}

// SignMultipartParts signs fresh URLs for parts (POST /upload/multipart/sign).
func (s *Service) SignMultipartParts(ctx context.Context, path, uploadID string, partNumbers []int) ([]PartURL, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	for i, n := range partNumbers {
		if n < 1 || n > maxParts {
			return nil, Invalid("Validation failed: partNumbers: Number must be between 1 and 10000",
				Issue{Code: IssueTooBig, Message: "Number must be between 1 and 10000", Path: []any{"partNumbers", i}})
		}
	}
	if _, err := s.openMultipart(ctx, pr.OrganizationID, path, uploadID); err != nil {
		return nil, err
	}
	out := make([]PartURL, 0, len(partNumbers))
	for _, n := range partNumbers {
		u, err := d.st.PresignPart(ctx, path, uploadID, n, uploadURLTTL)
		if err != nil {
			return nil, fmt.Errorf("app: multipart sign: %w", err)
		}
		out = append(out, PartURL{PartNumber: n, URL: u})
	}
	return out, nil
}

// CompleteMultipartUpload assembles the parts and records the upload (POST /upload/multipart/complete).
// Completing again after success answers the same upload.
func (s *Service) CompleteMultipartUpload(ctx context.Context, teamID *string, path, uploadID string, parts []UploadPart) (*Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	return s.finishSession(ctx, pr, teamID, path, uploadID, true, func(d *uploadDeps, sess store.UploadSession) error {
		for i := 1; i < len(parts); i++ {
			if parts[i].Number <= parts[i-1].Number {
				return Invalid("Validation failed: parts: Parts must be in ascending order of partNumber, each once",
					Issue{Code: IssueCustom, Message: "Parts must be in ascending order of partNumber, each once", Path: []any{"parts", i, "partNumber"}})
			}
		}
		err := d.st.CompleteMultipart(ctx, sess.Path, uploadID, storageParts(parts))
		var pe *storage.PartError
		switch {
		case errors.As(err, &pe):
			return issue(IssueCustom, "parts", "The parts do not match the uploaded ones: "+strings.TrimPrefix(pe.Msg, "storage: "))
		case errors.Is(err, storage.ErrNotFound):
			// Assembled by an earlier call that failed after it: the object is there.
			if _, serr := d.st.Size(ctx, sess.Path); serr == nil {
				return nil
			}
			return NotFound("Multipart upload")
		case err != nil:
			return fmt.Errorf("app: multipart complete: %w", err)
		}
		return nil
	})
}

// AbortMultipartUpload discards a multipart upload and its parts (POST /upload/multipart/abort).
func (s *Service) AbortMultipartUpload(ctx context.Context, path, uploadID string) error {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return err
	}
	d := s.uploads
	return store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		sess, err := s.session(ctx, tx, pr.OrganizationID, path)
		if err != nil {
			return err
		}
		if sess.MultipartID == nil || *sess.MultipartID != uploadID {
			return NotFound("Multipart upload")
		}
		if sess.CompletedAt != nil {
			return issue(IssueCustom, "uploadId", "This multipart upload is completed; delete the upload instead")
		}
		if sess.AbortedAt != nil {
			return nil
		}
		if err := d.st.AbortMultipart(ctx, sess.Path, uploadID); err != nil {
			return fmt.Errorf("app: multipart abort: %w", err)
		}
		if err := s.q.WithTx(tx).AbortUploadSession(ctx, sess.ID); err != nil {
			return fmt.Errorf("app: multipart abort: %w", err)
		}
		return s.audit(ctx, tx, auditBy(pr, auditItem{Action: "upload.aborted", TargetType: "upload_session", TargetID: sess.Path}))
	})
}

// UploadFilter is GET /upload's query; empty fields do not filter.
type UploadFilter struct {
	TeamID       *string
	Types        []string // image | video | document (type and types together)
	Status       string   // USED | UNUSED
	IDs          []string
	URLs         []string
	IncludePosts bool
}

// ListUploads answers the organization's uploads, newest first.
func (s *Service) ListUploads(ctx context.Context, f UploadFilter, page Page) ([]Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if err := page.validate(); err != nil {
		return nil, err
	}
	params := store.ListUploadsParams{OrganizationID: pr.OrganizationID, Types: []string{}, Ids: []string{}, Paths: []string{},
		Off: int32(page.Offset), Lim: int32(page.Limit)}
	for i, t := range f.Types {
		switch media.Kind(t) {
		case media.KindImage, media.KindVideo, media.KindDocument:
			params.Types = append(params.Types, t)
		default:
			return nil, Invalid("Validation failed: types: Invalid enum value. Expected 'image' | 'video' | 'document'",
				Issue{Code: IssueInvalidEnumValue, Message: "Invalid enum value. Expected 'image' | 'video' | 'document', received '" + t + "'", Path: []any{"types", i}})
		}
	}
	switch f.Status {
	case "":
	case "USED", "UNUSED":
		params.Used = pgtype.Bool{Bool: f.Status == "USED", Valid: true}
	default:
		return nil, issue(IssueInvalidEnumValue, "status", "Invalid enum value. Expected 'USED' | 'UNUSED'")
	}
	if params.TeamID, err = s.checkTeam(ctx, s.q, pr.OrganizationID, f.TeamID); err != nil {
		return nil, err
	}
	params.Ids = append(params.Ids, f.IDs...)
	for _, u := range f.URLs {
		if key, ok := d.st.KeyOf(u); ok {
			params.Paths = append(params.Paths, key)
		}
	}
	if len(f.URLs) > 0 && len(params.Paths) == 0 {
		return []Upload{}, nil // none of the URLs is one of Crier's
	}
	rows, err := s.q.ListUploads(ctx, params)
	if err != nil {
		return nil, fmt.Errorf("app: list uploads: %w", err)
	}
	out := make([]Upload, 0, len(rows))
	for _, r := range rows {
		out = append(out, *s.uploadFromRow(ctx, r))
	}
	if f.IncludePosts {
		if err := s.attachPosts(ctx, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (s *Service) attachPosts(ctx context.Context, ups []Upload) error {
	ids := make([]string, len(ups))
	for i, u := range ups {
		ids[i] = u.ID
		ups[i].Posts = []UploadPostLink{}
	}
	if len(ids) == 0 {
		return nil
	}
	links, err := s.q.ListUploadPostLinks(ctx, ids)
	if err != nil {
		return fmt.Errorf("app: upload posts: %w", err)
	}
	byUpload := map[string][]UploadPostLink{}
	for _, l := range links {
		byUpload[l.UploadID] = append(byUpload[l.UploadID], UploadPostLink{PostID: l.PostID, UploadID: l.UploadID, CreatedAt: l.CreatedAt, UpdatedAt: l.UpdatedAt, DeletedAt: l.DeletedAt})
	}
	for i := range ups {
		if l := byUpload[ups[i].ID]; l != nil {
			ups[i].Posts = l
		}
	}
	return nil
}

// GetUpload answers one upload with its posts.
func (s *Service) GetUpload(ctx context.Context, id string) (*Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	row, err := s.q.GetUpload(ctx, store.GetUploadParams{ID: id, OrganizationID: pr.OrganizationID})
	if err != nil {
		return nil, notFoundOr(err, "Upload", "app: get upload")
	}
	out := []Upload{*s.uploadFromRow(ctx, row)}
	if err := s.attachPosts(ctx, out); err != nil {
		return nil, err
	}
	return &out[0], nil
}

// UploadPublicURL answers a signed URL of an upload that lives long enough for networks that pull
// media (Instagram, Threads, Pinterest, Google Business, TikTok) to fetch it while they process.
func (s *Service) UploadPublicURL(ctx context.Context, orgID, id string) (string, error) {
	d := s.uploads
	row, err := s.q.GetUpload(ctx, store.GetUploadParams{ID: id, OrganizationID: orgID})
	if err != nil {
		return "", notFoundOr(err, "Upload", "app: upload url")
	}
	return d.st.PresignGet(ctx, row.Path, storage.MaxPresignTTL)
}

// DeleteUploads deletes uploads of the organization, all or none: an unknown id is 404, an upload
// used by a scheduled post is 400 naming the posts. Their objects leave storage after the commit.
func (s *Service) DeleteUploads(ctx context.Context, ids []string) ([]Upload, error) {
	pr, err := authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if len(ids) == 0 {
		return nil, Invalid("Validation failed: ids: Array must contain at least 1 element(s)",
			Issue{Code: IssueTooSmall, Message: "Array must contain at least 1 element(s)", Path: []any{"ids"}})
	}
	var rows []store.Upload
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		found, err := q.GetUploadsByIDs(ctx, store.GetUploadsByIDsParams{OrganizationID: pr.OrganizationID, Ids: ids})
		if err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		have := map[string]bool{}
		for _, r := range found {
			have[r.ID] = true
		}
		for _, id := range ids {
			if !have[id] {
				return NotFound("Upload")
			}
		}
		uniq := make([]string, 0, len(found))
		for _, r := range found {
			uniq = append(uniq, r.ID)
		}
		blocking, err := scheduledPostsUsing(ctx, q, pr.OrganizationID, uniq)
		if err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		var issues []Issue
		for i, id := range ids {
			if posts := blocking[id]; len(posts) > 0 {
				issues = append(issues, Issue{Code: IssueCustom, Path: []any{"ids", i},
					Message: fmt.Sprintf("Upload %s is used by scheduled posts %s; remove it from them first", id, strings.Join(posts, ", "))})
			}
		}
		if len(issues) > 0 {
			return Invalid("Validation failed: ids: "+issues[0].Message, issues...)
		}
		if rows, err = q.SoftDeleteUploads(ctx, store.SoftDeleteUploadsParams{OrganizationID: pr.OrganizationID, Ids: uniq}); err != nil {
			return fmt.Errorf("app: delete uploads: %w", err)
		}
		for _, r := range rows {
			if err := s.audit(ctx, tx, auditBy(pr, auditItem{Action: "upload.deleted", TargetType: "upload", TargetID: r.ID,
				Metadata: map[string]any{"mime": r.Mime, "fileSize": r.FileSize}})); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	out := make([]Upload, 0, len(rows))
	for _, r := range rows {
		out = append(out, *s.uploadFromRow(ctx, r))
		out[len(out)-1].URL, out[len(out)-1].ThumbnailURL, out[len(out)-1].IconURL = nil, nil, nil
	}
	s.purge(context.WithoutCancel(ctx), d, rows)
	return out, nil
}

// DeleteUpload deletes one upload.
func (s *Service) DeleteUpload(ctx context.Context, id string) (*Upload, error) {
	out, err := s.DeleteUploads(ctx, []string{id})
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) && e.Code == EInvalid && len(e.Issues) > 0 {
			e.Issues[0].Path = []any{"id"}
		}
		return nil, err
	}
	return &out[0], nil
}

// purge removes deleted uploads' objects and marks them purged; what fails stays for the cleanup job.
func (s *Service) purge(ctx context.Context, d *uploadDeps, rows []store.Upload) int {
	var done []string
	for _, r := range rows {
		ok := true
		for _, k := range []*string{&r.Path, r.ThumbnailPath, r.IconPath} {
			if k == nil {
				continue
			}
			if err := d.st.Delete(ctx, *k); err != nil {
				s.log.WarnContext(ctx, "purge upload object", "key", *k, "err", err)
				ok = false
			}
		}
		if ok {
			done = append(done, r.ID)
		}
	}
	if len(done) > 0 {
		if err := s.q.MarkUploadsPurged(ctx, done); err != nil {
			s.log.WarnContext(ctx, "mark uploads purged", "err", err)
		}
	}
	return len(done)
}

// UploadCleanup is what one run of the cleanup job did.
type UploadCleanup struct {
	Expired, Purged, Abandoned int
}

// CleanupUploads is the periodic job: it deletes unused uploads older than the retention, removes
// the objects of deleted uploads, and discards signed-URL uploads abandoned before completion.
func (s *Service) CleanupUploads(ctx context.Context) (UploadCleanup, error) {
	var res UploadCleanup
	d := s.uploads
	const batch = 500
	now := s.now()
	var expired []store.Upload
	err := store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		rows, err := q.ListExpiredUnusedUploads(ctx, store.ListExpiredUnusedUploadsParams{Before: now.Add(-d.opts.Retention), Lim: batch})
		if err != nil {
			return fmt.Errorf("app: cleanup uploads: %w", err)
		}
		byOrg := map[string][]string{}
		for _, r := range rows {
			byOrg[r.OrganizationID] = append(byOrg[r.OrganizationID], r.ID)
		}
		for org, ids := range byOrg {
			deleted, err := q.SoftDeleteUploads(ctx, store.SoftDeleteUploadsParams{OrganizationID: org, Ids: ids})
			if err != nil {
				return fmt.Errorf("app: cleanup uploads: %w", err)
			}
			expired = append(expired, deleted...)
			if err := s.audit(ctx, tx, auditItem{OrganizationID: org, ActorType: "SYSTEM", ActorName: "upload retention",
				Action: "upload.expired", TargetType: "upload", Metadata: map[string]any{"ids": ids, "retentionDays": int(d.opts.Retention.Hours() / 24)}}); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return res, err
	}
	res.Expired = len(expired)
	unpurged, err := s.q.ListUnpurgedUploads(ctx, batch)
	if err != nil {
		return res, fmt.Errorf("app: cleanup uploads: %w", err)
	}
	res.Purged = s.purge(ctx, d, unpurged)
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		q := s.q.WithTx(tx)
		stale, err := q.ListStaleUploadSessions(ctx, store.ListStaleUploadSessionsParams{Before: now.Add(-d.opts.AbandonAfter), Lim: batch})
		if err != nil {
			return fmt.Errorf("app: cleanup upload sessions: %w", err)
		}
		for _, sess := range stale {
			if sess.MultipartID != nil {
				err = d.st.AbortMultipart(ctx, sess.Path, *sess.MultipartID)
			} else {
				err = d.st.Delete(ctx, sess.Path)
			}
			if err != nil {
				s.log.WarnContext(ctx, "discard abandoned upload", "path", sess.Path, "err", err)
				continue
			}
			if err := q.AbortUploadSession(ctx, sess.ID); err != nil {
				return fmt.Errorf("app: cleanup upload sessions: %w", err)
			}
			res.Abandoned++
		}
		return nil
	})
	return res, err
}

func (s *Service) uploadFromRow(ctx context.Context, r store.Upload) *Upload {
	u := &Upload{ID: r.ID, OrganizationID: r.OrganizationID, TeamID: r.TeamID, Type: media.Kind(r.Type), Mime: r.Mime, Ext: r.Ext,
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
