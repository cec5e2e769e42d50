// Empty: the module is the header in include/.
