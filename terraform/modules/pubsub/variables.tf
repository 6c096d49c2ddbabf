variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}


variable "topics" {
  description = "Topic names (shared/topology.ts TOPICS)."
  type        = list(string)

  validation {
    condition     = length(var.topics) > 0 && alltrue([for t in var.topics : can(regex("^[A-Za-z][A-Za-z0-9._~+%-]{2,254}$", t))])
    error_message = "Each topic name must be 3-255 characters, start with a letter and hold only letters, digits and . _ ~ + % -."
  }
}

variable "dead_letter_topics" {
  description = "Dead-letter topic names, one per consumed topic (<topic>-dlq)."
  type        = list(string)

  validation {
    condition     = alltrue([for t in var.dead_letter_topics : endswith(t, "-dlq")])
    error_message = "Dead-letter topic names end in -dlq."
  }
}

variable "message_retention_duration" {
  description = "How long topics retain messages, as seconds with an s suffix (e.g. 86400s)."
  type        = string
  default     = "86400s"

  validation {
    condition     = can(regex("^[0-9]+s$", var.message_retention_duration))
    error_message = "message_retention_duration must look like 86400s."
  }
}

variable "dead_letter_retention_duration" {
  description = "How long dead-lettered messages are kept on the hold subscription (at most 7 days: 604800s)."
  type        = string
  default     = "604800s"

  validation {
    condition     = can(regex("^[0-9]+s$", var.dead_letter_retention_duration)) && tonumber(trimsuffix(var.dead_letter_retention_duration, "s")) <= 604800
    error_message = "dead_letter_retention_duration must look like 604800s and be at most 7 days."
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

