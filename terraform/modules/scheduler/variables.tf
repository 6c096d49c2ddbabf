variable "project_id" {
  description = "Google Cloud project to deploy into."
  type        = string

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{4,28}[a-z0-9]$", var.project_id))
    error_message = "project_id must be a valid Google Cloud project id."
  }
}


variable "region" {
  description = "Cloud Scheduler region (an App Engine-compatible location such as europe-west1)."
  type        = string

  validation {
    condition     = can(regex("^[a-z]+-[a-z]+[0-9]+$", var.region))
    error_message = "region must look like europe-west1."
  }
}

variable "name_prefix" {
  description = "Prefix for job names, e.g. \"dev-\"; empty for none."
  type        = string
  default     = ""

  validation {
    condition     = can(regex("^[a-z0-9-]{0,20}$", var.name_prefix))
    error_message = "name_prefix may hold up to 20 lowercase letters, digits and hyphens."
  }
}

variable "schedules" {
  description = "Jobs from the topology module: job => cron, time zone, topic, description."
  type = map(object({
    cron        = string
    time_zone   = string
    topic       = string
    description = string
  }))

  validation {
    condition     = alltrue([for s in var.schedules : length(split(" ", s.cron)) == 5])
    error_message = "Every cron expression must have five fields."
  }
}

variable "topic_ids" {
  description = "Topic id by topic name (pubsub module output)."
  type        = map(string)

  validation {
    condition     = alltrue([for id in values(var.topic_ids) : can(regex("^projects/[^/]+/topics/.+$", id))])
    error_message = "topic_ids values must look like projects/P/topics/T."
  }
}

variable "paused" {
  description = "Create the jobs paused (resume with bias-monitor jobs resume NAME)."
  type        = bool
  default     = false
}
