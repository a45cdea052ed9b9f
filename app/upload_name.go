package app

import (
	"context"
	"fmt"
	"net/url"
	"path"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/jackc/pgx/v5"

	"github.com/crier/crier/store"
)

// Upload names: what people call their files in the library. The name comes from the user's file
// (the file part's name, /upload/init's fileName) or a from-url address's last segment, and can be
// changed in the library. The API's Upload record has no name (the spec has none), so it stays out
// of the API's answers.

// MaxUploadName is the longest name, in characters (a file system's usual bound; the column checks it).
const MaxUploadName = 255

// cleanUploadName is a name as given, without what a browser or client may add: a path (old browsers
// send C:\fakepath\…), control characters, invalid UTF-8, surrounding spaces.
func cleanUploadName(s string) string {
	s = strings.ToValidUTF8(s, "")
	if i := strings.LastIndexAny(s, `/\`); i >= 0 {
		s = s[i+1:]
	}
	s = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return -1
		}
		return r
	}, s)
	return strings.TrimSpace(s)
}

// uploadName checks a name the caller gave in field: "" when none, a 400 when longer than the bound.
func uploadName(s, field string) (string, error) {
	s = cleanUploadName(s)
	if n := utf8.RuneCountInString(s); n > MaxUploadName {
		return "", issue(IssueTooBig, field, fmt.Sprintf("The name is %d characters; it may be at most %d", n, MaxUploadName))
	}
	return s, nil
}

// nameFromURL is the name of a from-url upload: the address's last path segment, decoded, cut to the
// bound (the caller did not choose it, so it is not a reason to refuse the file); "" when the path
// has none (https://example.com/).
func nameFromURL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	seg := path.Base(u.Path)
	if seg == "/" || seg == "." {
		return ""
	}
	s := cleanUploadName(seg)
	if utf8.RuneCountInString(s) > MaxUploadName {
		s = string([]rune(s)[:MaxUploadName])
	}
	return s
}

// RenameUpload gives an upload a new name (the library's inline edit).
func (s *Service) RenameUpload(ctx context.Context, id, name string) (*Upload, error) {
	pr, err := Authorize(PrincipalFrom(ctx), ActContent)
	if err != nil {
		return nil, err
	}
	name, err = uploadName(name, "name")
	if err != nil {
		return nil, err
	}
	if name == "" {
		return nil, issue(IssueTooSmall, "name", "A name is required")
	}
	var row store.Upload
	err = store.InTx(ctx, s.db, func(tx pgx.Tx) error {
		row, err = s.q.WithTx(tx).RenameUpload(ctx, store.RenameUploadParams{Name: &name, ID: id, OrganizationID: pr.OrganizationID})
		if err != nil {
			return NotFoundOr(err, "Upload", "app: rename upload")
		}
		return s.Audit(ctx, tx, AuditBy(pr, AuditItem{Action: "upload.renamed", TargetType: "upload", TargetID: row.ID,
			Metadata: map[string]any{"name": name}}))
	})
	if err != nil {
		return nil, err
	}
	return s.UploadFromRow(ctx, row), nil
}

// nameSession keeps a signed-URL upload's file name until it is recorded.
func (s *Service) nameSession(ctx context.Context, tx pgx.Tx, sessionID, name string) error {
	if name == "" {
		return nil
	}
	if err := s.q.WithTx(tx).NameUploadSession(ctx, store.NameUploadSessionParams{FileName: &name, ID: sessionID}); err != nil {
		return fmt.Errorf("app: upload name: %w", err)
	}
	return nil
}
