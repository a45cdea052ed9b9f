package app

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/media"
	"github.com/crier/crier/netguard"
	"github.com/crier/crier/store"
)

// CreateUpload stores a file sent in the request (POST /upload). declared is the part's
// Content-Type: checked against the bytes only when it names one of the allowed types; name is the
// part's file name ("" for none).
func (s *Service) CreateUpload(ctx context.Context, teamID *string, r io.ReadSeeker, size int64, declared, name string) (*Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if name, err = uploadName(name, "file"); err != nil {
		return nil, err
	}
	if teamID, err = s.checkTeam(ctx, s.q, pr.OrganizationID, teamID); err != nil {
		return nil, err
	}
	if err := s.checkQuota(ctx, s.q, pr.OrganizationID); err != nil {
		return nil, err
	}
	if !media.IsAllowed(declared) {
		declared = ""
	}
	return s.storeAndRecord(ctx, d, pr, teamID, r, size, declared, "file", name, nil)
}

// storeAndRecord puts r (sniffed first, so refused types never reach storage) and records it.
func (s *Service) storeAndRecord(ctx context.Context, d *uploadDeps, pr *Principal, teamID *string, r io.ReadSeeker, size int64, declared, field, name string, externalLink *string) (*Upload, error) {
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
	p.name = name
	var row store.Upload
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err = s.record(ctx, tx, pr, teamID, p, externalLink)
		return err
	})
	if err != nil {
		s.discard(ctx, d, p.key, p.thumb, p.icon)
		return nil, err
	}
	return s.UploadFromRow(ctx, row), nil
}

// CreateUploadFromURL fetches a public URL (SSRF-safe: see netguard) and stores it as an upload.
func (s *Service) CreateUploadFromURL(ctx context.Context, teamID *string, rawURL string) (*Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
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
	return s.storeAndRecord(ctx, d, pr, teamID, tmp, n, "", "url", nameFromURL(rawURL), &rawURL)
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
