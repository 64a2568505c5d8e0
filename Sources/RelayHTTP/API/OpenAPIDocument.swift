/// The OpenAPI 3.1 description of the query API, written by hand to match the handlers
/// (the tests run schemathesis against a live server with it). Served at `/openapi.json`.
enum OpenAPIDocument {
    static let json = #"""
{
  "openapi": "3.1.0",
  "info": {
    "title": "entrupy-relay query API",
    "version": "1.0.0",
    "description": "Reconciled Entrupy authentications, their timelines and notification deliveries. Every /v1 route needs `Authorization: Bearer <token>` (`entrupy-relay tokens create`). Roles: admin (everything), support (read everything but raw webhooks, retry deliveries, reconcile items), consumer (read items, authorize SDK users). Errors are `{\"error\": {\"status\", \"message\"}}`; a bad parameter's message names it."
  },
  "servers": [{"url": "/"}],
  "security": [{"bearer": []}],
  "paths": {
    "/v1/items": {
      "get": {
        "operationId": "searchItems",
        "summary": "Search items, newest first (submission time). Values of one parameter OR; different parameters AND.",
        "parameters": [
          {"$ref": "#/components/parameters/result"}, {"$ref": "#/components/parameters/flag"},
          {"$ref": "#/components/parameters/brand"}, {"$ref": "#/components/parameters/category"},
          {"$ref": "#/components/parameters/username"}, {"$ref": "#/components/parameters/customer_item_id"},
          {"$ref": "#/components/parameters/unique_user_id"}, {"$ref": "#/components/parameters/since"},
          {"$ref": "#/components/parameters/until"}, {"$ref": "#/components/parameters/last_days"},
          {"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"},
          {"name": "result_mode", "in": "query", "description": "`count_only` answers only `total_count`.",
           "schema": {"type": "string", "enum": ["items", "count_only"]}}
        ],
        "responses": {
          "200": {"description": "A page of items (or only the count).", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemSearch"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/items/{entrupy_id}": {
      "get": {
        "operationId": "getItem",
        "summary": "An item (by Entrupy ID, else the latest with that customer item ID) with its whole history. `webhooks` and `deliveries` are left out for consumer tokens.",
        "parameters": [{"$ref": "#/components/parameters/entrupy_id"}],
        "responses": {
          "200": {"description": "The item.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/ItemDetail"}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "404": {"$ref": "#/components/responses/NotFound"},
          "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/items/{entrupy_id}/reconcile": {
      "post": {
        "operationId": "reconcileItem",
        "summary": "Fetch the item from Entrupy again now (support, admin).",
        "parameters": [{"$ref": "#/components/parameters/entrupy_id"}],
        "responses": {
          "202": {"description": "Queued (or already queued: `job_id` null).", "content": {"application/json": {"schema": {
            "type": "object", "required": ["entrupy_id", "job_id", "message"],
            "properties": {"entrupy_id": {"type": "string"}, "job_id": {"type": ["integer", "null"]}, "message": {"type": "string"}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "404": {"$ref": "#/components/responses/NotFound"},
          "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/deliveries": {
      "get": {
        "operationId": "listDeliveries",
        "summary": "Notification deliveries, newest first (support, admin).",
        "parameters": [
          {"name": "state", "in": "query", "schema": {"type": "string", "enum": ["pending", "failed", "delivered", "dead"]}},
          {"name": "item", "in": "query", "description": "An Entrupy ID.", "schema": {"type": "string", "minLength": 1, "maxLength": 256}},
          {"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}
        ],
        "responses": {
          "200": {"description": "A page of deliveries.", "content": {"application/json": {"schema": {
            "type": "object", "required": ["deliveries", "next_cursor"],
            "properties": {"deliveries": {"type": "array", "items": {"$ref": "#/components/schemas/Delivery"}},
                           "next_cursor": {"type": ["string", "null"]}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/deliveries/{id}/retry": {
      "post": {
        "operationId": "retryDelivery",
        "summary": "Attempt a failed or dead delivery again now, keeping its idempotency key (support, admin).",
        "parameters": [{"name": "id", "in": "path", "required": true, "schema": {"type": "integer", "minimum": 1}}],
        "responses": {
          "202": {"description": "Queued.", "content": {"application/json": {"schema": {
            "type": "object", "required": ["delivery", "message"],
            "properties": {"delivery": {"$ref": "#/components/schemas/Delivery"}, "message": {"type": "string"}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "404": {"$ref": "#/components/responses/NotFound"},
          "409": {"description": "Already delivered, or being attempted right now.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/events": {
      "get": {
        "operationId": "listEvents",
        "summary": "Received webhooks as stored (metadata, not bodies), newest first (admin).",
        "parameters": [
          {"name": "state", "in": "query", "style": "form", "explode": true,
           "schema": {"type": "array", "items": {"type": "string", "enum": ["queued", "unrecognised", "unparseable", "processed", "failed"]}}},
          {"name": "event_type", "in": "query", "style": "form", "explode": true, "schema": {"$ref": "#/components/schemas/Values"}},
          {"name": "entrupy_id", "in": "query", "style": "form", "explode": true, "schema": {"$ref": "#/components/schemas/Values"}},
          {"$ref": "#/components/parameters/customer_item_id"},
          {"name": "since", "in": "query", "description": "Received at or after (ISO 8601).", "schema": {"type": "string"}},
          {"name": "until", "in": "query", "description": "Received before (ISO 8601).", "schema": {"type": "string"}},
          {"$ref": "#/components/parameters/limit"}, {"$ref": "#/components/parameters/cursor"}
        ],
        "responses": {
          "200": {"description": "A page of events.", "content": {"application/json": {"schema": {
            "type": "object", "required": ["events", "next_cursor"],
            "properties": {"events": {"type": "array", "items": {"$ref": "#/components/schemas/WebhookEvent"}},
                           "next_cursor": {"type": ["string", "null"]}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"}, "429": {"$ref": "#/components/responses/TooManyRequests"}
        }
      }
    },
    "/v1/sdk/authorize": {
      "post": {
        "operationId": "authorizeSDKUser",
        "summary": "Have Entrupy sign an SDK authorization request for one of your users (consumer, admin). The username is stored: search items by `unique_user_id` or `username`.",
        "requestBody": {"required": true, "content": {"application/json": {"schema": {
          "type": "object", "additionalProperties": false, "required": ["sdk_authorization_request", "unique_user_id", "email"],
          "properties": {
            "sdk_authorization_request": {"type": "string", "minLength": 1},
            "unique_user_id": {"type": "string", "minLength": 8, "maxLength": 40, "pattern": "^[A-Za-z0-9@.+_-]{8,40}$"},
            "email": {"type": "string", "minLength": 3, "maxLength": 254, "pattern": "@"},
            "first_name": {"type": ["string", "null"], "maxLength": 254},
            "last_name": {"type": ["string", "null"], "maxLength": 254}}}}}},
        "responses": {
          "200": {"description": "Signed. With `conflict` true (Entrupy's 409: it kept the first email and names), `warning` says so and the signed request is still valid.",
            "content": {"application/json": {"schema": {
              "type": "object", "required": ["signed_authorization_request", "username", "conflict"],
              "properties": {"signed_authorization_request": {"type": "string"}, "username": {"type": "string"},
                             "conflict": {"type": "boolean"}, "warning": {"type": "string"}}}}}},
          "400": {"$ref": "#/components/responses/BadRequest"}, "401": {"$ref": "#/components/responses/Unauthorized"},
          "403": {"$ref": "#/components/responses/Forbidden"},
          "413": {"description": "Body too large.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "429": {"$ref": "#/components/responses/TooManyRequests"},
          "502": {"description": "Entrupy failed or refused the relay's token.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
          "503": {"description": "The Entrupy API is not configured, or the user could not be recorded.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
        }
      }
    },
    "/healthz": {
      "get": {"operationId": "health", "security": [], "summary": "Alive.", "responses": {"200": {"description": "The process answers."}}}
    },
    "/readyz": {
      "get": {"operationId": "ready", "security": [], "summary": "Database reachable and every migration applied.",
        "responses": {"200": {"description": "Ready."}, "503": {"description": "Not ready; the body says why."}}}
    }
  },
  "components": {
    "securitySchemes": {"bearer": {"type": "http", "scheme": "bearer", "description": "An API token from `entrupy-relay tokens create`."}},
    "parameters": {
      "entrupy_id": {"name": "entrupy_id", "in": "path", "required": true, "description": "An Entrupy ID, or a customer item ID.", "schema": {"type": "string", "minLength": 1}},
      "result": {"name": "result", "in": "query", "style": "form", "explode": true, "description": "authentic, unknown, not_supported, needs_review, invalid, or any other value Entrupy uses.", "schema": {"$ref": "#/components/schemas/Values"}},
      "flag": {"name": "flag", "in": "query", "style": "form", "explode": true, "schema": {"type": "array", "items": {"type": "string", "enum": ["none", "flagged", "resolved"]}}},
      "brand": {"name": "brand", "in": "query", "style": "form", "explode": true, "schema": {"$ref": "#/components/schemas/Values"}},
      "category": {"name": "category", "in": "query", "style": "form", "explode": true, "schema": {"$ref": "#/components/schemas/Values"}},
      "username": {"name": "username", "in": "query", "style": "form", "explode": true, "schema": {"$ref": "#/components/schemas/Values"}},
      "customer_item_id": {"name": "customer_item_id", "in": "query", "style": "form", "explode": true, "description": "Exact.", "schema": {"$ref": "#/components/schemas/Values"}},
      "unique_user_id": {"name": "unique_user_id", "in": "query", "style": "form", "explode": true, "description": "An SDK user's own ID, matched through the username Entrupy gave it.", "schema": {"$ref": "#/components/schemas/Values"}},
      "since": {"name": "since", "in": "query", "description": "Submitted at or after, ISO 8601 (2026-11-01 or 2026-11-01T08:30:00Z).", "schema": {"type": "string"}},
      "until": {"name": "until", "in": "query", "description": "Submitted before, ISO 8601.", "schema": {"type": "string"}},
      "last_days": {"name": "last_days", "in": "query", "description": "Submitted in the last N days; not with since or until.", "schema": {"type": "integer", "minimum": 1, "maximum": 3650}},
      "limit": {"name": "limit", "in": "query", "schema": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20}},
      "cursor": {"name": "cursor", "in": "query", "description": "`next_cursor` of the previous page.", "schema": {"type": "string"}}
    },
    "responses": {
      "BadRequest": {"description": "A parameter or field is wrong; the message names it.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Unauthorized": {"description": "No valid bearer token.", "headers": {"WWW-Authenticate": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "Forbidden": {"description": "The token's role does not allow this.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "NotFound": {"description": "No such item or delivery.", "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}},
      "TooManyRequests": {"description": "Too many failed sign-ins from this address, or Entrupy is rate limiting; see Retry-After.", "headers": {"Retry-After": {"schema": {"type": "string"}}}, "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}}}
    },
    "schemas": {
      "Values": {"type": "array", "items": {"type": "string", "minLength": 1, "maxLength": 256}},
      "Error": {"type": "object", "required": ["error"], "properties": {"error": {"type": "object", "required": ["status", "message"],
        "properties": {"status": {"type": "integer"}, "message": {"type": "string"}}}}},
      "ItemSummary": {"type": "object",
        "required": ["entrupy_id", "customer_item_id", "result", "result_final", "flag", "brand", "category", "username", "submitted_at", "updated_at", "listed_at"],
        "properties": {
          "entrupy_id": {"type": "string"}, "customer_item_id": {"type": ["string", "null"]}, "result": {"type": ["string", "null"]},
          "result_final": {"type": "boolean"}, "flag": {"type": "string"}, "brand": {"type": ["string", "null"]},
          "category": {"type": ["string", "null"]}, "username": {"type": ["string", "null"]},
          "submitted_at": {"type": ["string", "null"], "format": "date-time"}, "updated_at": {"type": "string", "format": "date-time"},
          "listed_at": {"type": "string", "format": "date-time", "description": "The sort time: submission, or first sight when Entrupy gave none."}}},
      "ItemSearch": {"type": "object", "required": ["total_count"],
        "properties": {"items": {"type": "array", "items": {"$ref": "#/components/schemas/ItemSummary"}}, "item_count": {"type": "integer"},
                       "total_count": {"type": "integer", "description": "Exact with result_mode=count_only, and on a page unless it filters by username, customer_item_id or unique_user_id and more than 10,000 match (then 10,000 and total_count_exact false)."},
                       "total_count_exact": {"type": "boolean"}, "next_cursor": {"type": ["string", "null"], "description": "null on the last page."}}},
      "ItemDetail": {"allOf": [{"$ref": "#/components/schemas/ItemSummary"}, {"type": "object",
        "required": ["model", "certificate_url", "first_seen_at", "fetched_at", "transitions", "reconciliations", "timeline"],
        "properties": {
          "model": {"type": ["string", "null"]}, "certificate_url": {"type": ["string", "null"]},
          "first_seen_at": {"type": "string", "format": "date-time"}, "fetched_at": {"type": "string", "format": "date-time"},
          "transitions": {"type": "array", "items": {"type": "object", "required": ["kind", "at", "from", "to", "source", "webhook_event_id"],
            "properties": {"kind": {"type": "string"}, "at": {"type": "string", "format": "date-time"}, "from": {"type": ["string", "null"]},
                           "to": {"type": ["string", "null"]}, "source": {"type": "string"}, "webhook_event_id": {"type": ["integer", "null"]}}}},
          "reconciliations": {"type": "array", "items": {"type": "object", "required": ["at", "source", "outcome", "transitions", "webhook_event_id"],
            "properties": {"at": {"type": "string", "format": "date-time"}, "source": {"type": "string"},
                           "outcome": {"type": "string", "enum": ["created", "changed", "unchanged", "stale"]},
                           "transitions": {"type": "integer"}, "webhook_event_id": {"type": ["integer", "null"]}}}},
          "webhooks": {"type": "array", "items": {"$ref": "#/components/schemas/WebhookEvent"}},
          "deliveries": {"type": "array", "items": {"allOf": [{"$ref": "#/components/schemas/Delivery"}, {"type": "object", "required": ["attempt_history"],
            "properties": {"attempt_history": {"type": "array", "items": {"$ref": "#/components/schemas/Attempt"}}}}]}},
          "timeline": {"type": "array", "description": "Everything above in time order, one sentence each.", "items": {"type": "object",
            "required": ["kind", "at", "summary", "webhook_event_id", "delivery_id"],
            "properties": {"kind": {"type": "string"}, "at": {"type": "string", "format": "date-time"}, "summary": {"type": "string"},
                           "webhook_event_id": {"type": ["integer", "null"]}, "delivery_id": {"type": ["integer", "null"]}}}}}}]},
      "WebhookEvent": {"type": "object",
        "required": ["id", "event_type", "event_id", "entrupy_id", "customer_item_id", "state", "duplicates", "verified_by", "client_address", "body_bytes", "received_at"],
        "properties": {"id": {"type": "integer"}, "event_type": {"type": ["string", "null"]}, "event_id": {"type": ["string", "null"]},
          "entrupy_id": {"type": ["string", "null"]}, "customer_item_id": {"type": ["string", "null"]}, "state": {"type": "string"},
          "duplicates": {"type": "integer"}, "verified_by": {"type": "string"}, "client_address": {"type": ["string", "null"]},
          "body_bytes": {"type": "integer"}, "received_at": {"type": "string", "format": "date-time"}}},
      "Delivery": {"type": "object",
        "required": ["id", "entrupy_id", "rule", "channel", "target", "state", "attempts", "last_error", "transition", "idempotency_key", "created_at", "next_attempt_at", "delivered_at"],
        "properties": {"id": {"type": "integer"}, "entrupy_id": {"type": "string"}, "rule": {"type": "string"},
          "channel": {"type": "string", "enum": ["email", "webhook"]}, "target": {"type": "string"},
          "state": {"type": "string", "enum": ["pending", "failed", "delivered", "dead"]}, "attempts": {"type": "integer"},
          "last_error": {"type": ["string", "null"]}, "transition": {"type": "string"}, "idempotency_key": {"type": "string"},
          "created_at": {"type": "string", "format": "date-time"}, "next_attempt_at": {"type": ["string", "null"], "format": "date-time"},
          "delivered_at": {"type": ["string", "null"], "format": "date-time"}}},
      "Attempt": {"type": "object",
        "required": ["attempt", "started_at", "duration_ms", "outcome", "status_code", "smtp_reply", "error", "response_excerpt"],
        "properties": {"attempt": {"type": "integer"}, "started_at": {"type": "string", "format": "date-time"}, "duration_ms": {"type": "integer"},
          "outcome": {"type": "string", "enum": ["delivered", "failed", "dead"]}, "status_code": {"type": ["integer", "null"]},
          "smtp_reply": {"type": ["string", "null"]}, "error": {"type": ["string", "null"]}, "response_excerpt": {"type": ["string", "null"]}}}
    }
  }
}
"""#
}
