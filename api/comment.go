package api

import (
	"context"

	"github.com/crier/crier/app"
)

// The six non-import /comment operations: thin glue over app.Service (CreateComment …).

func commentParams(title, postID, importedID, parentID, fetchedID, postDate, text *string, status *string, types []app.Network, data *CommentData) (app.CommentParams, error) {
	p := app.CommentParams{Title: title, InternalPostID: postID, ImportedPostID: importedID, InternalParentCommentID: parentID,
		FetchedParentCommentID: fetchedID, PostDate: postDate, Text: text, SocialAccountTypes: types}
	if status != nil {
		st := app.PostStatus(*status)
		p.Status = &st
	}
	if data != nil {
		var err error
		if p.Data, err = viaJSON[map[app.Network]app.CommentText](*data, "comment data"); err != nil {
			return p, err
		}
	}
	return p, nil
}

func strp[T ~string](v *T) *string {
	if v == nil {
		return nil
	}
	s := string(*v)
	return &s
}

// CommentCreate answers POST /comment.
func (s *Server) CommentCreate(ctx context.Context, req CommentCreateRequestObject) (CommentCreateResponseObject, error) {
	b := req.Body
	var types []app.Network
	if b.SocialAccountTypes != nil {
		types = networks(*b.SocialAccountTypes)
	}
	p, err := commentParams(b.Title, b.InternalPostId, b.ImportedPostId, b.InternalParentCommentId, b.FetchedParentCommentId, b.PostDate, b.Text, strp(b.Status), types, b.Data)
	if err != nil {
		return nil, err
	}
	p.TeamID = b.TeamId
	c, err := s.pub.CreateComment(ctx, p)
	if err != nil {
		return nil, err
	}
	out, err := toComment(*c)
	return CommentCreate200JSONResponse(out), err
}

// CommentGet answers GET /comment/{id}.
func (s *Server) CommentGet(ctx context.Context, req CommentGetRequestObject) (CommentGetResponseObject, error) {
	c, err := s.pub.GetComment(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	out, err := toComment(*c)
	return CommentGet200JSONResponse(out), err
}

// CommentGetList answers GET /comment.
func (s *Server) CommentGetList(ctx context.Context, req CommentGetListRequestObject) (CommentGetListResponseObject, error) {
	q := req.Params
	f := app.CommentFilter{TeamID: q.TeamId, PostID: q.PostId, ImportedPostID: q.ImportedPostId, Q: q.Q}
	if q.Status != nil {
		st := app.PostStatus(*q.Status)
		f.Status = &st
	}
	if q.OrderBy != nil {
		f.OrderBy = string(*q.OrderBy)
	}
	if q.Order != nil {
		f.Order = string(*q.Order)
	}
	if q.Platforms != nil {
		f.Platforms = networks(*q.Platforms)
	}
	cs, total, err := s.pub.ListComments(ctx, f, app.PageOf(intOf(q.Offset), intOf(q.Limit), app.DefaultCommentListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]Comment, 0, len(cs))
	for _, c := range cs {
		o, err := toComment(c)
		if err != nil {
			return nil, err
		}
		items = append(items, o)
	}
	return CommentGetList200JSONResponse{Items: items, Total: float32(total)}, nil
}

// CommentUpdate answers PATCH /comment/{id}.
func (s *Server) CommentUpdate(ctx context.Context, req CommentUpdateRequestObject) (CommentUpdateResponseObject, error) {
	b := req.Body
	var types []app.Network
	if b.SocialAccountTypes != nil {
		types = networks(*b.SocialAccountTypes)
	}
	p, err := commentParams(b.Title, b.InternalPostId, b.ImportedPostId, b.InternalParentCommentId, b.FetchedParentCommentId, b.PostDate, b.Text, strp(b.Status), types, b.Data)
	if err != nil {
		return nil, err
	}
	c, err := s.pub.UpdateComment(ctx, req.Id, p)
	if err != nil {
		return nil, err
	}
	out, err := toComment(*c)
	return CommentUpdate200JSONResponse(out), err
}

// CommentDelete answers DELETE /comment/{id} with the deleted comment.
func (s *Server) CommentDelete(ctx context.Context, req CommentDeleteRequestObject) (CommentDeleteResponseObject, error) {
	c, err := s.pub.DeleteComment(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	out, err := toComment(*c)
	return CommentDelete200JSONResponse(out), err
}

// CommentRetry answers POST /comment/{id}/retry.
func (s *Server) CommentRetry(ctx context.Context, req CommentRetryRequestObject) (CommentRetryResponseObject, error) {
	c, err := s.pub.RetryComment(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	out, err := toComment(*c)
	return CommentRetry200JSONResponse(out), err
}

func toComment(c app.Comment) (Comment, error) {
	return viaJSON[Comment](c, "comment")
}
