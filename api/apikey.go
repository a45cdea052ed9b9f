package api

import (
	"context"

	"github.com/crier/crier/app"
)

// apiKeyListLimit is the default page size of GET /api-key.
const apiKeyListLimit = 20

// ApiKeyGetList answers GET /api-key: items and total, filtered by q.
func (s *Server) ApiKeyGetList(ctx context.Context, req ApiKeyGetListRequestObject) (ApiKeyGetListResponseObject, error) {
	q := ""
	if req.Params.Q != nil {
		q = *req.Params.Q
	}
	keys, total, err := s.svc.ListAPIKeys(ctx, q, app.PageOf(req.Params.Offset, req.Params.Limit, apiKeyListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]ApiKey, 0, len(keys))
	for _, k := range keys {
		created := k.CreatedAt
		items = append(items, ApiKey{Id: k.ID, Name: k.Name, Prefix: k.Prefix, LastUsedAt: k.LastUsedAt, CreatedAt: &created})
	}
	return ApiKeyGetList200JSONResponse{Items: &items, Total: &total}, nil
}

// ApiKeyCreate answers POST /api-key: 201 with the full key, shown this once.
func (s *Server) ApiKeyCreate(ctx context.Context, req ApiKeyCreateRequestObject) (ApiKeyCreateResponseObject, error) {
	k, err := s.svc.CreateAPIKey(ctx, req.Body.Name)
	if err != nil {
		return nil, err
	}
	return ApiKeyCreate201JSONResponse(toKeyWithSecret(k)), nil
}

// ApiKeyRoll answers POST /api-key/{id}/roll with the new key.
func (s *Server) ApiKeyRoll(ctx context.Context, req ApiKeyRollRequestObject) (ApiKeyRollResponseObject, error) {
	k, err := s.svc.RollAPIKey(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return ApiKeyRoll200JSONResponse(toKeyWithSecret(k)), nil
}

// ApiKeyDelete answers DELETE /api-key/{id}.
func (s *Server) ApiKeyDelete(ctx context.Context, req ApiKeyDeleteRequestObject) (ApiKeyDeleteResponseObject, error) {
	if err := s.svc.DeleteAPIKey(ctx, req.Id); err != nil {
		return nil, err
	}
	return ApiKeyDelete200JSONResponse{Success: true}, nil
}

func toKeyWithSecret(k *app.APIKeyWithSecret) ApiKeyWithSecret {
	created := k.CreatedAt
	return ApiKeyWithSecret{Id: k.ID, Name: &k.Name, Prefix: &k.Prefix, Key: k.Key, CreatedAt: &created}
}
