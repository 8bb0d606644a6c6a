from lxml import etree


def make_parser():
    return etree.XMLParser(resolve_entities=True, huge_tree=False)
