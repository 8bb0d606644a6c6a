from lxml import etree


def make_parser():
    return etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False)
