variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}


variable "dataset_id" {
  description = "Dataset id (shared/config.ts BIGQUERY_DATASET)."
  type        = string
  default     = "bias_monitor"

  validation {
    condition     = can(regex("^[A-Za-z0-9_]{1,1024}$", var.dataset_id))
    error_message = "dataset_id may hold letters, digits and underscores."
  }
}

variable "location" {
  description = "Dataset location (shared/config.ts BIGQUERY_LOCATION), e.g. EU, US or europe-west1."
  type        = string

  validation {
    condition     = can(regex("^(EU|US|[a-z]+-[a-z]+[0-9]+)$", var.location))
    error_message = "location must be EU, US or a region such as europe-west1."
  }
}

variable "deletion_protection" {
  description = "Protect tables against terraform destroy."
  type        = bool
  default     = true
}

variable "audit_stream_topic_id" {
  description = "Topic id of bias.audit.stream (pubsub module output)."
  type        = string

  validation {
    condition     = can(regex("^projects/[^/]+/topics/.+$", var.audit_stream_topic_id))
    error_message = "audit_stream_topic_id must look like projects/P/topics/T."
  }
}

variable "audit_stream_topic_name" {
  description = "Short name of the audit stream topic; names the BigQuery subscription and its dead-letter topic."
  type        = string
  default     = "bias.audit.stream"

  validation {
    condition     = can(regex("^[A-Za-z][A-Za-z0-9._~+%-]{2,200}$", var.audit_stream_topic_name))
    error_message = "audit_stream_topic_name must be a valid topic name."
  }
}

variable "labels" {
  description = "Labels applied to every resource that supports them."
  type        = map(string)
  default     = {}

  validation {
    condition     = alltrue([for k, v in var.labels : can(regex("^[a-z][a-z0-9_-]{0,62}$", k)) && can(regex("^[a-z0-9_-]{0,63}$", v))])
    error_message = "Label keys and values must be lowercase letters, digits, _ or -, at most 63 characters."
  }
}

