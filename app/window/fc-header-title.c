/* fc-header-title.c - what the window holds, named in its header: name, and what else tells it apart
 *
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "fc-header-title.h"
#include "fc-view-util.h"

struct _FcHeaderTitle
{
  GtkBox    parent_instance;

  /* template widgets */
  GtkLabel *file_label;
  GtkLabel *file_sublabel;
};

G_DEFINE_FINAL_TYPE (FcHeaderTitle, fc_header_title, GTK_TYPE_BOX)

/**
 * fc_header_title_set:
 * @self: a header title
 * @title: the process or file shown, short ("threads", "profile.json")
 * @subtitle: (nullable): what else tells it apart (pid, folder)
 *
 * The subtitle below the name gives way first; the tooltip has both.
 */
void
fc_header_title_set (FcHeaderTitle *self,
                     const char    *title,
                     const char    *subtitle)
{
  g_autofree char *full = NULL;
  gboolean has_subtitle = subtitle != NULL && *subtitle != '\0';

  g_return_if_fail (FC_IS_HEADER_TITLE (self));
  g_return_if_fail (title != NULL);

  full = has_subtitle ? g_strdup_printf ("%s — %s", title, subtitle) : g_strdup (title);
  gtk_label_set_text (self->file_label, title);
  gtk_label_set_text (self->file_sublabel, has_subtitle ? subtitle : "");
  gtk_widget_set_visible (GTK_WIDGET (self->file_sublabel), has_subtitle);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), full);
  gtk_widget_set_visible (GTK_WIDGET (self), TRUE);
}

/* "pid 4194304", the largest pid: a folder beyond gives way in its middle */
#define SUBTITLE_ROOM_CHARS 11

/**
 * fc_header_title_keep_room:
 * @self: a header title
 * @max_chars: how many characters of the name keep their room, or -1 for none
 *
 * The line below keeps room for a pid too: under a short name ("mt") it was
 * cut to the name's width ("pi…6").
 *
 * Returns: the characters of room the name takes (0 with -1)
 */
int
fc_header_title_keep_room (FcHeaderTitle *self,
                           int            max_chars)
{
  g_return_val_if_fail (FC_IS_HEADER_TITLE (self), 0);

  fc_label_keep_room (self->file_label, max_chars, PANGO_ELLIPSIZE_END);
  fc_label_keep_room (self->file_sublabel, max_chars < 0 ? -1 : MIN (max_chars, SUBTITLE_ROOM_CHARS),
                      PANGO_ELLIPSIZE_MIDDLE);
  return max_chars < 0 ? 0 : MIN ((int) g_utf8_strlen (gtk_label_get_text (self->file_label), -1), max_chars);
}

GtkWidget *
fc_header_title_get_part (FcHeaderTitle *self,
                          const char    *id)
{
  g_return_val_if_fail (FC_IS_HEADER_TITLE (self), NULL);

  return GTK_WIDGET (gtk_widget_get_template_child (GTK_WIDGET (self), FC_TYPE_HEADER_TITLE, id));
}

static void
fc_header_title_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), FC_TYPE_HEADER_TITLE);

  G_OBJECT_CLASS (fc_header_title_parent_class)->dispose (object);
}

static void
fc_header_title_class_init (FcHeaderTitleClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = fc_header_title_dispose;

  gtk_widget_class_set_template_from_resource (widget_class, "/io/github/flamecast/Flamecast/ui/fc-header-title.ui");
  gtk_widget_class_bind_template_child (widget_class, FcHeaderTitle, file_label);
  gtk_widget_class_bind_template_child (widget_class, FcHeaderTitle, file_sublabel);
}

static void
fc_header_title_init (FcHeaderTitle *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
