from ldap3.utils.conv import escape_filter_chars


def clean(value):
    return value.lower()
