package api

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"

	"github.com/crier/crier/app"
)

// UploadCreate answers POST /upload: the multipart part named file (its filename means nothing; the
// type comes from the bytes) and an optional teamId. The file is spooled to a temporary file.
func (s *Server) UploadCreate(ctx context.Context, req UploadCreateRequestObject) (UploadCreateResponseObject, error) {
	var teamID *string
	var file *os.File
	var declared string
	defer func() {
		if file != nil {
			file.Close()
			os.Remove(file.Name())
		}
	}()
	var size int64
	var name string // the file part's name: the upload's name in the dashboard
	for {
		part, err := req.Body.NextPart()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, app.Invalid("Validation failed: body: malformed multipart body",
				app.Issue{Code: app.IssueCustom, Message: "Malformed multipart body", Path: []any{}})
		}
		switch part.FormName() {
		case "teamId":
			b, _ := io.ReadAll(io.LimitReader(part, 200))
			if v := strings.TrimSpace(string(b)); v != "" {
				teamID = &v
			}
		case "file":
			if file != nil {
				continue
			}
			if file, err = os.CreateTemp("", "crier-upload-*"); err != nil {
				return nil, fmt.Errorf("api: upload: %w", err)
			}
			if size, err = io.Copy(file, part); err != nil {
				return nil, app.Invalid("Validation failed: file: the upload was interrupted",
					app.Issue{Code: app.IssueCustom, Message: "The upload was interrupted", Path: []any{"file"}})
			}
			declared = strings.TrimSpace(strings.Split(part.Header.Get("Content-Type"), ";")[0])
			name = part.FileName()
		}
		part.Close()
	}
	if file == nil {
		return nil, app.Invalid("Validation failed: file: Required", app.Issue{Code: app.IssueInvalidType, Message: "Required", Path: []any{"file"}})
	}
	if _, err := file.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("api: upload: %w", err)
	}
	u, err := s.svc.CreateUpload(ctx, teamID, file, size, declared, name)
	if err != nil {
		return nil, err
	}
	return UploadCreate200JSONResponse(toUpload(*u)), nil
}

// UploadCreateFromUrl answers POST /upload/from-url.
func (s *Server) UploadCreateFromUrl(ctx context.Context, req UploadCreateFromUrlRequestObject) (UploadCreateFromUrlResponseObject, error) {
	u, err := s.svc.CreateUploadFromURL(ctx, req.Body.TeamId, req.Body.Url)
	if err != nil {
		return nil, err
	}
	return UploadCreateFromUrl200JSONResponse(toUpload(*u)), nil
}

// UploadInitLargeUpload answers POST /upload/init: a signed URL for one PUT, and the path to finalize.
func (s *Server) UploadInitLargeUpload(ctx context.Context, req UploadInitLargeUploadRequestObject) (UploadInitLargeUploadResponseObject, error) {
	var size *int64
	if req.Body.FileSize != nil {
		n := int64(*req.Body.FileSize)
		size = &n
	}
	su, err := s.svc.InitUpload(ctx, req.Body.TeamId, req.Body.FileName, string(req.Body.MimeType), size)
	if err != nil {
		return nil, err
	}
	return UploadInitLargeUpload200JSONResponse{Url: su.URL, Path: su.Path}, nil
}

// UploadFinalizeLargeUpload answers POST /upload/finalize.
func (s *Server) UploadFinalizeLargeUpload(ctx context.Context, req UploadFinalizeLargeUploadRequestObject) (UploadFinalizeLargeUploadResponseObject, error) {
	u, err := s.svc.FinalizeUpload(ctx, req.Body.TeamId, req.Body.Path)
	if err != nil {
		return nil, err
	}
	return UploadFinalizeLargeUpload200JSONResponse(toUpload(*u)), nil
}

type partURL = struct {
	PartNumber int    `json:"partNumber"`
	Url        string `json:"url"`
}

func toPartURLs(in []app.PartURL) []partURL {
	out := make([]partURL, len(in))
	for i, p := range in {
		out[i] = partURL{PartNumber: p.PartNumber, Url: p.URL}
	}
	return out
}

// UploadInitMultipartUpload answers POST /upload/multipart/init.
func (s *Server) UploadInitMultipartUpload(ctx context.Context, req UploadInitMultipartUploadRequestObject) (UploadInitMultipartUploadResponseObject, error) {
	m, err := s.svc.InitMultipartUpload(ctx, req.Body.TeamId, req.Body.FileName, string(req.Body.MimeType), int64(req.Body.FileSize))
	if err != nil {
		return nil, err
	}
	return UploadInitMultipartUpload200JSONResponse{UploadId: m.UploadID, Path: m.Path, PartSize: int(m.PartSize), Parts: toPartURLs(m.Parts)}, nil
}

// UploadSignMultipartParts answers POST /upload/multipart/sign.
func (s *Server) UploadSignMultipartParts(ctx context.Context, req UploadSignMultipartPartsRequestObject) (UploadSignMultipartPartsResponseObject, error) {
	parts, err := s.svc.SignMultipartParts(ctx, req.Body.Path, req.Body.UploadId, req.Body.PartNumbers)
	if err != nil {
		return nil, err
	}
	return UploadSignMultipartParts200JSONResponse{Parts: toPartURLs(parts)}, nil
}

// UploadCompleteMultipartUpload answers POST /upload/multipart/complete.
func (s *Server) UploadCompleteMultipartUpload(ctx context.Context, req UploadCompleteMultipartUploadRequestObject) (UploadCompleteMultipartUploadResponseObject, error) {
	parts := make([]app.UploadPart, len(req.Body.Parts))
	for i, p := range req.Body.Parts {
		parts[i] = app.UploadPart{Number: p.PartNumber, ETag: p.Etag}
	}
	u, err := s.svc.CompleteMultipartUpload(ctx, req.Body.TeamId, req.Body.Path, req.Body.UploadId, parts)
	if err != nil {
		return nil, err
	}
	return UploadCompleteMultipartUpload200JSONResponse(toUpload(*u)), nil
}

// UploadAbortMultipartUpload answers POST /upload/multipart/abort.
func (s *Server) UploadAbortMultipartUpload(ctx context.Context, req UploadAbortMultipartUploadRequestObject) (UploadAbortMultipartUploadResponseObject, error) {
	if err := s.svc.AbortMultipartUpload(ctx, req.Body.Path, req.Body.UploadId); err != nil {
		return nil, err
	}
	return UploadAbortMultipartUpload200JSONResponse{Success: true}, nil
}

// UploadGetList answers GET /upload with every filter of the spec; without includePosts the
// records carry no posts field.
func (s *Server) UploadGetList(ctx context.Context, req UploadGetListRequestObject) (UploadGetListResponseObject, error) {
	p := req.Params
	f := app.UploadFilter{TeamID: p.TeamId, IncludePosts: p.IncludePosts == nil || *p.IncludePosts}
	if p.Type != nil {
		f.Types = append(f.Types, string(*p.Type))
	}
	if p.Types != nil {
		f.Types = append(f.Types, splitList(*p.Types)...)
	}
	if p.Status != nil {
		f.Status = string(*p.Status)
	}
	if p.Ids != nil {
		f.IDs = splitList(*p.Ids)
	}
	if p.Urls != nil {
		f.URLs = *p.Urls
	}
	ups, err := s.svc.ListUploads(ctx, f, app.PageOf(p.Offset, p.Limit, app.DefaultUploadListMax))
	if err != nil {
		return nil, err
	}
	if !f.IncludePosts {
		out := make([]Upload, len(ups))
		for i, u := range ups {
			out[i] = toUpload(u)
		}
		return uploadListWithoutPosts(out), nil
	}
	out := make(UploadGetList200JSONResponse, len(ups))
	for i, u := range ups {
		out[i] = toUploadWithPosts(u)
	}
	return out, nil
}

// uploadListWithoutPosts is GET /upload's answer with includePosts=false.
type uploadListWithoutPosts []Upload

func (r uploadListWithoutPosts) VisitUploadGetListResponse(w http.ResponseWriter) error {
	var buf bytes.Buffer
	if err := json.NewEncoder(&buf).Encode(r); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	_, err := buf.WriteTo(w)
	return err
}

// splitList accepts both repeated parameters (ids=a&ids=b) and comma-separated ones (ids=a,b).
func splitList(in []string) []string {
	var out []string
	for _, v := range in {
		for _, p := range strings.Split(v, ",") {
			if p = strings.TrimSpace(p); p != "" {
				out = append(out, p)
			}
		}
	}
	return out
}

// UploadGet answers GET /upload/{id} with its posts.
func (s *Server) UploadGet(ctx context.Context, req UploadGetRequestObject) (UploadGetResponseObject, error) {
	u, err := s.svc.GetUpload(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return UploadGet200JSONResponse(toUploadWithPosts(*u)), nil
}

// UploadDelete answers DELETE /upload/{id} with the deleted upload.
func (s *Server) UploadDelete(ctx context.Context, req UploadDeleteRequestObject) (UploadDeleteResponseObject, error) {
	u, err := s.svc.DeleteUpload(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return UploadDelete200JSONResponse(toUpload(*u)), nil
}

// UploadDeleteMany answers DELETE /upload (body: ids) with the deleted uploads.
func (s *Server) UploadDeleteMany(ctx context.Context, req UploadDeleteManyRequestObject) (UploadDeleteManyResponseObject, error) {
	ups, err := s.svc.DeleteUploads(ctx, req.Body.Ids)
	if err != nil {
		return nil, err
	}
	out := make(UploadDeleteMany200JSONResponse, len(ups))
	for i, u := range ups {
		out[i] = toUpload(u)
	}
	return out, nil
}

func toUpload(u app.Upload) Upload {
	created, updated, org, mime, ext, path := u.CreatedAt, u.UpdatedAt, u.OrganizationID, u.Mime, u.Ext, u.Path
	size := float64(u.FileSize)
	out := Upload{Id: u.ID, TeamId: u.TeamID, OrganizationId: &org, Type: UploadType(u.Type), Mime: &mime, Ext: &ext,
		Path: &path, ThumbnailPath: u.ThumbnailPath, IconPath: u.IconPath, ExternalLink: u.ExternalLink,
		Url: u.URL, ThumbnailUrl: u.ThumbnailURL, IconUrl: u.IconURL, FileSize: &size, CreatedAt: &created, UpdatedAt: &updated}
	if u.Width != nil {
		w, h := float64(*u.Width), float64(*u.Height)
		out.Width, out.Height = &w, &h
	}
	if u.VideoLength != nil {
		v := *u.VideoLength
		out.VideoLength = &v
	}
	return out
}

func toUploadWithPosts(u app.Upload) UploadWithPosts {
	b := toUpload(u)
	posts := make([]UploadPostLink, 0, len(u.Posts))
	for _, p := range u.Posts {
		created, updated := p.CreatedAt, p.UpdatedAt
		posts = append(posts, UploadPostLink{PostId: p.PostID, UploadId: p.UploadID, CreatedAt: &created, UpdatedAt: &updated, DeletedAt: p.DeletedAt})
	}
	return UploadWithPosts{Id: b.Id, TeamId: b.TeamId, OrganizationId: b.OrganizationId, Type: UploadWithPostsType(b.Type),
		Mime: b.Mime, Ext: b.Ext, Path: b.Path, ThumbnailPath: b.ThumbnailPath, IconPath: b.IconPath, ExternalLink: b.ExternalLink,
		Url: b.Url, ThumbnailUrl: b.ThumbnailUrl, IconUrl: b.IconUrl, FileSize: b.FileSize, Width: b.Width, Height: b.Height,
		VideoLength: b.VideoLength, CreatedAt: b.CreatedAt, UpdatedAt: b.UpdatedAt, Posts: posts}
}
