import os

from django.http import HttpResponse


def open_in_editor(request):
    editor = request.headers.get("X-Editor", "vi")
    os.system(editor + " /srv/notes/todo.txt")
    return HttpResponse(status=204)
