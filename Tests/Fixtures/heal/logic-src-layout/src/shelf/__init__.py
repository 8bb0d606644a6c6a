from .stock import below_threshold, reorder_quantity, total_stock

__all__ = ["below_threshold", "reorder_quantity", "total_stock"]
