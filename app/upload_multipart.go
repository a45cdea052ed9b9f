package app

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/storage"
	"github.com/crier/crier/store"
)

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
// fileName is the upload's name (the spec's required fileName).
func (s *Service) InitMultipartUpload(ctx context.Context, teamID *string, fileName, mime string, fileSize int64) (*MultipartUpload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if fileName, err = uploadName(fileName, "fileName"); err != nil {
		return nil, err
	}
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
		sess, err := s.q.WithTx(tx).CreateUploadSession(ctx, store.CreateUploadSessionParams{OrganizationID: pr.OrganizationID, TeamID: teamID,
			CreatedByID: nilIfEmpty(pr.UserID), Path: key, DeclaredMime: mime, FileSize: pgtype.Int8{Int64: fileSize, Valid: true},
			MultipartID: &mid, PartSize: pgtype.Int8{Int64: partSize, Valid: true}})
		if err != nil {
			return fmt.Errorf("app: multipart init: %w", err)
		}
		if err := s.nameSession(ctx, tx, sess.ID, fileName); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.started", TargetType: "upload_session", TargetID: key,
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
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
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
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
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
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
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
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.aborted", TargetType: "upload_session", TargetID: sess.Path}))
	})
}
