package app

import (
	"context"
	"errors"
	"fmt"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgtype"

	"github.com/crier/crier/media"
	"github.com/crier/crier/store"
)

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
// fileName is the upload's name (the spec's required fileName).
func (s *Service) InitUpload(ctx context.Context, teamID *string, fileName, mime string, fileSize *int64) (*SignedUpload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	d := s.uploads
	if fileName, err = uploadName(fileName, "fileName"); err != nil {
		return nil, err
	}
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
		sess, err := s.q.WithTx(tx).CreateUploadSession(ctx, params)
		if err != nil {
			return fmt.Errorf("app: upload init: %w", err)
		}
		if err := s.nameSession(ctx, tx, sess.ID, fileName); err != nil {
			return err
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.started", TargetType: "upload_session", TargetID: key, Metadata: map[string]any{"mimeType": mime}}))
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
		return sess, NotFoundOr(err, "Upload", "app: upload session")
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
				return NotFoundOr(err, "Upload", "app: upload finish")
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
		if sess.FileName != nil {
			p.name = *sess.FileName
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
	return s.UploadFromRow(ctx, out), nil
}

// FinalizeUpload turns the file PUT to an init URL into an upload (POST /upload/finalize).
func (s *Service) FinalizeUpload(ctx context.Context, teamID *string, path string) (*Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	return s.finishSession(ctx, pr, teamID, path, "", false, nil)
}
