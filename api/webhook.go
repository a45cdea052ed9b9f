package api

import (
	"context"

	"github.com/crier/crier/app"
)

// WebhookGetList answers GET /webhook: the organization's webhooks and their total.
func (s *Server) WebhookGetList(ctx context.Context, req WebhookGetListRequestObject) (WebhookGetListResponseObject, error) {
	hooks, total, err := s.svc.ListWebhooks(ctx, app.PageOf(req.Params.Offset, req.Params.Limit, app.DefaultWebhookListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]Webhook, 0, len(hooks))
	for _, h := range hooks {
		items = append(items, toWebhook(h))
	}
	return WebhookGetList200JSONResponse{Items: &items, Total: &total}, nil
}

// WebhookCreate answers POST /webhook with the new webhook and its secret.
func (s *Server) WebhookCreate(ctx context.Context, req WebhookCreateRequestObject) (WebhookCreateResponseObject, error) {
	events := eventKinds(&req.Body.Events)
	h, err := s.svc.CreateWebhook(ctx, app.WebhookParams{URL: &req.Body.Url, Events: events, Active: req.Body.Active})
	if err != nil {
		return nil, err
	}
	return WebhookCreate201JSONResponse(toWebhook(*h)), nil
}

// WebhookGet answers GET /webhook/{id}.
func (s *Server) WebhookGet(ctx context.Context, req WebhookGetRequestObject) (WebhookGetResponseObject, error) {
	h, err := s.svc.GetWebhook(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return WebhookGet200JSONResponse(toWebhook(*h)), nil
}

// WebhookUpdate answers PATCH /webhook/{id}.
func (s *Server) WebhookUpdate(ctx context.Context, req WebhookUpdateRequestObject) (WebhookUpdateResponseObject, error) {
	h, err := s.svc.UpdateWebhook(ctx, req.Id, app.WebhookParams{URL: req.Body.Url, Events: eventKinds(req.Body.Events), Active: req.Body.Active})
	if err != nil {
		return nil, err
	}
	return WebhookUpdate200JSONResponse(toWebhook(*h)), nil
}

// WebhookDelete answers DELETE /webhook/{id}.
func (s *Server) WebhookDelete(ctx context.Context, req WebhookDeleteRequestObject) (WebhookDeleteResponseObject, error) {
	if err := s.svc.DeleteWebhook(ctx, req.Id); err != nil {
		return nil, err
	}
	return WebhookDelete200JSONResponse{Success: true}, nil
}

// WebhookRotateSecret answers POST /webhook/{id}/rotate-secret with the webhook and its new secret.
func (s *Server) WebhookRotateSecret(ctx context.Context, req WebhookRotateSecretRequestObject) (WebhookRotateSecretResponseObject, error) {
	h, err := s.svc.RotateWebhookSecret(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return WebhookRotateSecret200JSONResponse(toWebhook(*h)), nil
}

// WebhookTest answers POST /webhook/{id}/test with the test event's Delivery, once sent.
func (s *Server) WebhookTest(ctx context.Context, req WebhookTestRequestObject) (WebhookTestResponseObject, error) {
	d, err := s.svc.TestWebhook(ctx, req.Id)
	if err != nil {
		return nil, err
	}
	return WebhookTest200JSONResponse(toDelivery(*d)), nil
}

// WebhookGetDeliveries answers GET /webhook/{id}/deliveries, newest first.
func (s *Server) WebhookGetDeliveries(ctx context.Context, req WebhookGetDeliveriesRequestObject) (WebhookGetDeliveriesResponseObject, error) {
	status := ""
	if req.Params.Status != nil {
		status = *req.Params.Status
	}
	ds, total, err := s.svc.ListWebhookDeliveries(ctx, req.Id, status, app.PageOf(req.Params.Offset, req.Params.Limit, app.DefaultWebhookListLimit))
	if err != nil {
		return nil, err
	}
	items := make([]WebhookDelivery, 0, len(ds))
	for _, d := range ds {
		items = append(items, toDelivery(d))
	}
	return WebhookGetDeliveries200JSONResponse{Items: &items, Total: &total}, nil
}

// WebhookResendDelivery answers POST /webhook/{id}/deliveries/{deliveryId}/resend with the Delivery
// after its new attempt.
func (s *Server) WebhookResendDelivery(ctx context.Context, req WebhookResendDeliveryRequestObject) (WebhookResendDeliveryResponseObject, error) {
	d, err := s.svc.ResendWebhookDelivery(ctx, req.Id, req.DeliveryId)
	if err != nil {
		return nil, err
	}
	return WebhookResendDelivery200JSONResponse(toDelivery(*d)), nil
}

func eventKinds(in *[]WebhookEventType) *[]string {
	if in == nil {
		return nil
	}
	out := make([]string, len(*in))
	for i, e := range *in {
		out[i] = string(e)
	}
	return &out
}

func toWebhook(h app.Webhook) Webhook {
	created, updated, secret := h.CreatedAt, h.UpdatedAt, h.Secret
	events := make([]WebhookEventType, len(h.Events))
	for i, e := range h.Events {
		events[i] = WebhookEventType(e)
	}
	return Webhook{Id: h.ID, Url: h.URL, Events: events, Active: h.Active, Secret: &secret, CreatedAt: &created, UpdatedAt: &updated}
}

func toDelivery(d app.WebhookDelivery) WebhookDelivery {
	attempt, eventID, created, payload := d.Attempt, d.EventID, d.CreatedAt, d.Payload
	return WebhookDelivery{Id: d.ID, Event: d.Event, EventId: &eventID, Attempt: &attempt, Status: WebhookDeliveryStatus(d.Status),
		ResponseCode: d.ResponseCode, ResponseBody: d.ResponseBody, DurationMs: d.DurationMs, NextAttemptAt: d.NextAttemptAt,
		CreatedAt: &created, Payload: &payload}
}
