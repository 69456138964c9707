package org.sue.core;

public enum PortDirection { IN, OUT }
